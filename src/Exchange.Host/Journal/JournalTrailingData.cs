namespace Exchange.Host.Journal;

/// <summary>What a journal holds after a given offset: where its non-zero bytes lie and which of them are valid records.</summary>
/// <param name="FirstDataOffset">Offset of the first non-zero byte; -1 when there is none (only zeros follow).</param>
/// <param name="DataEnd">Offset just past the last non-zero byte; -1 when there is none.</param>
/// <param name="ValidRecords">Valid records found at record positions.</param>
/// <param name="FirstSequence">Sequence of the first of them; -1 when none.</param>
/// <param name="LastSequence">Sequence of the last of them; -1 when none.</param>
internal readonly record struct JournalTrailingData(long FirstDataOffset, long DataEnd, long ValidRecords, long FirstSequence, long LastSequence)
{
    private const int RecordsPerRead = 8192;

    /// <summary>Nothing follows.</summary>
    public static JournalTrailingData None => new(-1, -1, 0, -1, -1);

    public bool IsEmpty => FirstDataOffset < 0;

    /// <summary>
    /// Reads <paramref name="file"/> from <paramref name="from"/> (a record position) to its end. After a crash that is
    /// the writer's zero-filled map chunk, up to <see cref="JournalOptions.MapChunkBytes"/>: a one-off read at start-up.
    /// </summary>
    public static JournalTrailingData Read(FileStream file, long from)
    {
        int recordSize = JournalFormat.RecordSize;
        byte[] buffer = new byte[recordSize * RecordsPerRead];
        long end = file.Length;
        long firstData = -1;
        long dataEnd = -1;
        long valid = 0;
        long firstSequence = -1;
        long lastSequence = -1;
        for (long offset = from; offset < end;)
        {
            // Read whole up to the end of the file, so each chunk is a whole number of record slots but the last.
            file.Position = offset;
            Span<byte> target = buffer.AsSpan(0, (int)Math.Min(buffer.Length, end - offset));
            int read = file.ReadAtLeast(target, target.Length, throwOnEndOfStream: false);
            if (read == 0)
            {
                break;
            }

            ReadOnlySpan<byte> chunk = buffer.AsSpan(0, read);
            if (chunk.ContainsAnyExcept((byte)0))
            {
                for (int at = 0; at < read; at += recordSize)
                {
                    ReadOnlySpan<byte> slot = chunk.Slice(at, Math.Min(recordSize, read - at));
                    int firstNonZero = slot.IndexOfAnyExcept((byte)0);
                    if (firstNonZero < 0)
                    {
                        continue;
                    }

                    firstData = firstData < 0 ? offset + at + firstNonZero : firstData;
                    dataEnd = offset + at + slot.LastIndexOfAnyExcept((byte)0) + 1;
                    if (slot.Length == recordSize && JournalFormat.TryReadRecord(slot, out long sequence, out _))
                    {
                        valid++;
                        firstSequence = firstSequence < 0 ? sequence : firstSequence;
                        lastSequence = sequence;
                    }
                }
            }

            offset += read;
        }

        return new JournalTrailingData(firstData, dataEnd, valid, firstSequence, lastSequence);
    }

    /// <summary>"3 valid records (sequences 18..20) among the data from offset X to Y".</summary>
    public string Describe() => ValidRecords > 0
        ? $"{ValidRecords} valid records (sequences {FirstSequence}..{LastSequence}) lie among the data from offset {FirstDataOffset} to {DataEnd}"
        : $"data that is not a valid record lies from offset {FirstDataOffset} to {DataEnd}";
}
