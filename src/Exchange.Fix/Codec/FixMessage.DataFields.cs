using System.Runtime.CompilerServices;
using Exchange.Fix.Dictionary;

namespace Exchange.Fix.Codec;

/// <summary>The tokenizer's DATA fields: values delimited by the byte count of their LENGTH field, not by SOH.</summary>
public sealed partial class FixMessage
{
    /// <summary>
    /// Handles the field just recorded (number count - 1, its SOH just before <paramref name="pos"/>), whose
    /// <paramref name="tag"/> is a paired LENGTH tag or a DATA tag. For a LENGTH field it reads the DATA field that
    /// must follow: the value is exactly the counted bytes, SOHs included, and an SOH must come right after them.
    /// Returns where tokenizing continues: after that SOH, or <paramref name="pos"/> when there is no DATA field to take
    /// (then <see cref="Error"/> is set and the caller goes on splitting at SOH, so the header fields a Reject needs,
    /// MsgSeqNum among them, are still found).
    /// </summary>
    /// <remarks>
    /// Reject reasons (FIX 4.4, SessionRejectReason 373), each with RefTagID = the LENGTH tag unless said otherwise:
    /// <list type="bullet">
    /// <item>6 when the count is not an integer (a LENGTH value is an INT).</item>
    /// <item>5 when it is zero, negative or overflows (LENGTH "must be positive"), and when the counted bytes do not end
    /// at an SOH, or would reach into the message's last field (CheckSum in a frame): the value does not describe the
    /// bytes that follow. Nothing can be wrong with DATA bytes themselves, so the fault is the count's.</item>
    /// <item>14 when the next field is not the DATA field: FIX says the LENGTH field "must immediately precede" it.
    /// Likewise a DATA field met without its LENGTH field just before it: 14 with RefTagID = the DATA tag.</item>
    /// </list>
    /// Out of line: only messages that carry LENGTH or DATA fields get here.
    /// </remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private int ReadDataField(DataFieldPairs dataFields, int tag, int pos, ref int count, ref ulong layout)
    {
        int dataTag = dataFields.DataTagOf(tag);
        if (dataTag == 0)
        {
            // A DATA tag here: a LENGTH field just before it would have taken it already.
            SetError(tag, SessionRejectReason.TagSpecifiedOutOfRequiredOrder);
            return pos;
        }

        FieldStatus status = FixInt.TryParse(ValueAt(count - 1), out long byteCount);
        if (status != FieldStatus.Ok)
        {
            FixFieldError error = FixFieldError.FromStatus(tag, status);
            SetError(error.Tag, error.Reason);
            return pos;
        }

        if (byteCount <= 0)
        {
            SetError(tag, SessionRejectReason.ValueIsIncorrect);
            return pos;
        }

        if (pos >= _length || ParseTagSlow(pos, _length, out int equals) != dataTag)
        {
            SetError(tag, SessionRejectReason.TagSpecifiedOutOfRequiredOrder);
            return pos;
        }

        // The value's closing SOH may be at most the one before the last field: a count that ran into CheckSum would
        // otherwise turn a wrong count into a "CheckSum missing".
        int valueStart = equals + 1;
        int lastField = LastFieldStart();
        if (byteCount >= lastField - valueStart || _buffer[valueStart + (int)byteCount] != FixConstants.Soh)
        {
            SetError(tag, SessionRejectReason.ValueIsIncorrect);
            return pos;
        }

        int valueEnd = valueStart + (int)byteCount;
        count = AddField(dataTag, pos, valueStart, valueEnd, count, ref layout, out _);
        return valueEnd + 1;
    }

    /// <summary>
    /// Where the loaded message's last field starts: after the last SOH before its final byte. In a frame that field
    /// is CheckSum ("10=nnn"), which holds no SOH, so no DATA value can hide this boundary.
    /// </summary>
    private int LastFieldStart() => _buffer.AsSpan(0, _length - 1).LastIndexOf(FixConstants.Soh) + 1;
}
