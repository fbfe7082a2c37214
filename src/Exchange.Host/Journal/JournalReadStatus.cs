namespace Exchange.Host.Journal;

/// <summary>Why a journal reader stopped (see <see cref="JournalTail"/> for the rule).</summary>
internal enum JournalReadStatus
{
    /// <summary>Still reading, or stopped at the end of the last valid record with only zeros after it.</summary>
    Clean,

    /// <summary>The last record's write was cut short by a crash (or the header's, in a file shorter than its header).</summary>
    TornRecord,

    /// <summary>
    /// A record that no crash could have left: one with data after it, or a complete one that was changed after it was
    /// written. Nothing is dropped; the journal must not be opened for append.
    /// </summary>
    Corrupt,
}
