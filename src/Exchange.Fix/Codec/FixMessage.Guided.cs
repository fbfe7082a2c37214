using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Exchange.Fix.Dictionary;

namespace Exchange.Fix.Codec;

/// <summary>The guided parse: a loaded message re-read along a known clean layout (see <see cref="ParseGuide"/>).</summary>
public sealed partial class FixMessage
{
    /// <summary>
    /// Indexes the loaded message along <paramref name="plan"/>'s guide: each field must start with exactly the
    /// expected "tag=" bytes and have a value, there must be as many fields as the guide has, and MsgType must be the
    /// guide's. Then the message's state (fields, tag table, MsgType, layout hash) is what the full parse would have
    /// produced, its layout is the plan's, and true is returned. False leaves partial state that
    /// <see cref="IndexFields"/> overwrites. Every field ends at an SOH here: a layout with a LENGTH or DATA field never
    /// gets a guide (<see cref="ParseGuide.Prepare"/>), so DATA values are only ever read by the full tokenizer.
    /// </summary>
    private bool TryParseGuided(LayoutPlan plan)
    {
        ParseGuide guide = plan.Guide;
        if (!guide.IsReady)
        {
            return false;
        }

        int expected = guide.Count;
        GuideField[] guideFields = guide.Fields;
        Field[] fields = _fields;
        if ((uint)expected > (uint)guideFields.Length || (uint)expected > (uint)fields.Length)
        {
            return false;
        }

        // The field count first: one popcount per 64 bytes, so the loop below cannot run past the guide and needs no
        // count test per field.
        int words = SohBitmap.WordsFor(_length);
        ulong[] soh = _soh;
        if ((uint)words > (uint)soh.Length)
        {
            return false;
        }

        int delimiters = 0;
        for (int w = 0; w < words; w++)
        {
            delimiters += BitOperations.PopCount(soh[w]);
        }

        if (delimiters != expected)
        {
            return false;
        }

        // Safe: exactly `expected` fields are visited, checked against both arrays above; every 8-byte read starts at
        // pos < _length and _buffer has SohBitmap.Padding (64) bytes beyond any message.
        ref byte data = ref MemoryMarshal.GetArrayDataReference(_buffer);
        ref GuideField g = ref MemoryMarshal.GetArrayDataReference(guideFields);
        ref Field f = ref MemoryMarshal.GetArrayDataReference(fields);
        int pos = 0;
        int count = 0;
        for (int w = 0; w < words; w++)
        {
            ulong bits = soh[w];
            while (bits != 0)
            {
                int end = (w * 64) + BitOperations.TrailingZeroCount(bits);
                bits &= bits - 1;
                ulong head = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref data, pos));

                // The prefix's bytes are digits and '=', never SOH, so a match also means end >= valueStart.
                int valueStart = pos + g.PrefixLength;
                if ((head & g.PrefixMask) != g.Prefix || valueStart == end)
                {
                    return false;
                }

                f.Tag = g.Tag;
                f.Start = pos;
                f.Offset = valueStart;
                f.Length = end - valueStart;
                f.IsRepeat = g.IsRepeat;
                f.Kind = FieldValueKind.None;
                g = ref Unsafe.Add(ref g, 1);
                f = ref Unsafe.Add(ref f, 1);
                count++;
                pos = end + 1;
            }
        }

        if (count != expected || pos != _length)
        {
            return false;
        }

        _count = count;
        _msgTypeIndex = guide.MsgTypeIndex;
        if (!guide.MsgTypeInPrefix && !ValueAt(_msgTypeIndex).SequenceEqual(guide.MsgType))
        {
            return false;
        }

        MsgTypeKind = guide.MsgTypeKind;
        LayoutHash = plan.Hash;
        // Compared first: a reference store costs a GC write barrier, and a run of one layout has the same table.
        if (!ReferenceEquals(_slots, guide.TagSlots))
        {
            _slots = guide.TagSlots;
        }

        _slotGeneration = ParseGuide.SlotGeneration;
        return true;
    }
}
