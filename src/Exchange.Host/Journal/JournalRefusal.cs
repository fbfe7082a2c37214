namespace Exchange.Host.Journal;

/// <summary>Why a journal cannot be opened.</summary>
internal enum JournalRefusal
{
    /// <summary>Another format, version or command layout, or a damaged header.</summary>
    Format,

    /// <summary>A corrupt record (see <see cref="JournalTail"/>).</summary>
    Corruption,

    /// <summary>The journal's instruments or sessions differ from the configuration's.</summary>
    Configuration,

    /// <summary>
    /// Replaying a record made the engine throw (a defect the command reproduces): the venue cannot rebuild its state past
    /// it. The operator may skip the record (Venue:Journal:SkipRecords) once they know what it was.
    /// </summary>
    ReplayFault,
}
