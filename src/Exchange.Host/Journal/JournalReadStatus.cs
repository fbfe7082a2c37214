namespace Exchange.Host.Journal;

/// <summary>Why a journal reader stopped.</summary>
internal enum JournalReadStatus
{
    /// <summary>Still reading, or stopped exactly at the end of the last complete valid record.</summary>
    Clean,

    /// <summary>The file ends inside a record (or inside the header): a write torn by a crash.</summary>
    TornRecord,

    /// <summary>A complete record failed its CRC: corruption; nothing from there on is trusted.</summary>
    CrcMismatch,
}
