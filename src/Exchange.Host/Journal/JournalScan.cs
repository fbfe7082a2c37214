namespace Exchange.Host.Journal;

/// <summary>What opening a journal for append found in the existing file.</summary>
/// <param name="Records">Valid records kept.</param>
/// <param name="LastSequence">Sequence of the last valid record; -1 when none.</param>
/// <param name="Status">Why the scan stopped: Clean, or TornRecord when a torn last record (or header) was dropped.</param>
/// <param name="GoodLength">The file length after truncation (header plus valid records).</param>
/// <param name="DroppedBytes">Bytes of the torn record (or header) truncated from the tail.</param>
/// <param name="ConfigurationChange">What changed in the journal's header at open (its recorded configuration, its format version); empty otherwise.</param>
internal readonly record struct JournalScan(
    long Records, long LastSequence, JournalReadStatus Status, long GoodLength, long DroppedBytes, string ConfigurationChange = "")
{
    /// <summary>A sentence for the host's log.</summary>
    public string Describe()
    {
        string scan = Status == JournalReadStatus.TornRecord
            ? $"dropped torn record at offset {GoodLength} ({DroppedBytes} bytes); kept {Records} records, last sequence {LastSequence}"
            : $"journal clean: {Records} records, last sequence {LastSequence}";
        return ConfigurationChange.Length == 0 ? scan : $"{scan}; {ConfigurationChange}";
    }
}
