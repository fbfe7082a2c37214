using System.Runtime.CompilerServices;

namespace Exchange.Fix.Dictionary;

/// <summary>
/// Which LENGTH field gives the byte count of which DATA field (RawDataLength 95 → RawData 96, SignatureLength 93 →
/// Signature 89, ...), as the tokenizer needs it: a DATA value may contain SOH, so it can only be delimited by the
/// count its LENGTH field carries. Built once from the dictionary (<see cref="DataFieldPairing"/>); immutable.
/// </summary>
internal sealed class DataFieldPairs
{
    /// <summary>One bit per tag: set for every paired LENGTH tag and every DATA tag, the fields the tokenizer must look at.</summary>
    private readonly ulong[] _marked;

    /// <summary>Indexed by tag: the DATA tag a LENGTH tag counts, 0 for every other tag.</summary>
    private readonly int[] _dataTagOf;

    public DataFieldPairs(IReadOnlyList<DataFieldPair> pairs)
    {
        int maxTag = 0;
        foreach (DataFieldPair pair in pairs)
        {
            maxTag = Math.Max(maxTag, Math.Max(pair.LengthTag, pair.DataTag));
        }

        _marked = new ulong[(maxTag / 64) + 1];
        _dataTagOf = new int[maxTag + 1];
        foreach (DataFieldPair pair in pairs)
        {
            _marked[pair.LengthTag >> 6] |= 1UL << pair.LengthTag;
            _marked[pair.DataTag >> 6] |= 1UL << pair.DataTag;
            _dataTagOf[pair.LengthTag] = pair.DataTag;
        }

        Pairs = [.. pairs.OrderBy(p => p.DataTag)];
    }

    /// <summary>Every pair, by DATA tag.</summary>
    public IReadOnlyList<DataFieldPair> Pairs { get; }

    /// <summary>
    /// True for a paired LENGTH tag or a DATA tag. The one test the tokenizer makes per field; everything else about
    /// DATA fields runs only when it is true.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool IsMarked(int tag)
    {
        ulong[] marked = _marked;
        int word = tag >> 6;

        // A negative tag gives a negative word, which the unsigned compare sends past the end. The shift count is
        // taken mod 64, so 1UL << tag is the tag's bit within its word.
        return (uint)word < (uint)marked.Length && (marked[word] & (1UL << tag)) != 0;
    }

    /// <summary>The DATA tag whose byte count <paramref name="lengthTag"/> carries; 0 when it is not a paired LENGTH tag.</summary>
    public int DataTagOf(int lengthTag) => (uint)lengthTag < (uint)_dataTagOf.Length ? _dataTagOf[lengthTag] : 0;
}

/// <summary>A LENGTH field and the DATA field whose byte count it carries.</summary>
internal readonly record struct DataFieldPair(int LengthTag, int DataTag);
