using System.Text;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;

namespace Exchange.LoadClient.Orders;

/// <summary>
/// One pre-encoded NewOrderSingle (35=D) for a fixed symbol, side, time in force and quantity, whose variable fields
/// are fixed width so a send only patches bytes in place: MsgSeqNum (34, 9 digits zero-padded), SendingTime (52) and
/// TransactTime (60) (21 characters each), the ClOrdID's kind and number (11), and Price (44, zero-padded integer
/// part). BodyLength never changes, and the CheckSum is kept incrementally (old bytes' sum out, new bytes' sum in), so
/// a send touches about 80 bytes and allocates nothing.
/// </summary>
/// <remarks>
/// Leading zeros are valid FIX (FIX 4.4 Vol. 1, data types: "int ... may contain leading zeros"; price/float likewise).
/// Not thread-safe: patch and send under the session's send lock.
/// </remarks>
internal sealed class NewOrderTemplate
{
    public const int SeqNumDigits = 9;

    public const int MaxSeqNum = 999_999_999;

    /// <summary>Digits before the decimal point of Price: up to 999999.x.</summary>
    public const int PriceIntegerDigits = 6;

    private readonly byte[] _bytes;
    private readonly int _length;
    private readonly int _seqOffset;
    private readonly int _sendingTimeOffset;
    private readonly int _clOrdIdOffset;
    private readonly int _transactTimeOffset;
    private readonly int _priceOffset;
    private readonly int _priceLength;
    private readonly int _checksumOffset;
    private readonly int _priceDecimals;
    private readonly long _priceScale;
    private readonly long _maxPrice;
    private int _sum;

    public NewOrderTemplate(
        string senderCompId, string targetCompId, ClOrdIdCodec clOrdIds, string symbol, Side side, TimeInForce timeInForce,
        long quantity, int priceDecimals)
    {
        ArgumentNullException.ThrowIfNull(clOrdIds);
        Side = side;
        TimeInForce = timeInForce;
        _priceDecimals = priceDecimals;
        _priceScale = (long)Math.Pow(10, priceDecimals);
        _priceLength = PriceIntegerDigits + (priceDecimals > 0 ? 1 + priceDecimals : 0);
        _maxPrice = ((long)Math.Pow(10, PriceIntegerDigits) * _priceScale) - 1;

        Span<byte> clOrdId = stackalloc byte[ClOrdIdCodec.Length];
        clOrdIds.Write(OrderKind.Flow, 0, clOrdId);
        Span<byte> pricePlaceholder = stackalloc byte[_priceLength];
        FormatPrice(0, pricePlaceholder);

        _bytes = new byte[FixMessageWriter.TypicalMaxLength];
        var w = new FixMessageWriter(_bytes);
        w.Begin("D"u8, new FixHeader(Encoding.ASCII.GetBytes(senderCompId), Encoding.ASCII.GetBytes(targetCompId), 100_000_000, 0));
        w.AddSpan(FixTags.ClOrdID, clOrdId);
        w.AddSpan(FixTags.Symbol, Encoding.ASCII.GetBytes(symbol));
        w.AddChar(FixTags.Side, (byte)side);
        w.AddTimestamp(FixTags.TransactTime, 0);
        w.AddInt(FixTags.OrderQty, quantity);
        w.AddChar(FixTags.OrdType, (byte)OrderType.Limit);
        w.AddSpan(FixTags.Price, pricePlaceholder);
        w.AddChar(FixTags.TimeInForce, (byte)timeInForce);
        _length = w.Finish();

        ReadOnlySpan<byte> message = _bytes.AsSpan(0, _length);
        _seqOffset = ValueOffset(message, "\u000134="u8);
        _sendingTimeOffset = ValueOffset(message, "\u000152="u8);
        _clOrdIdOffset = ValueOffset(message, "\u000111="u8);
        _transactTimeOffset = ValueOffset(message, "\u000160="u8);
        _priceOffset = ValueOffset(message, "\u000144="u8);
        _checksumOffset = ValueOffset(message, "\u000110="u8);
        ReadOnlySpan<byte> checksum = message.Slice(_checksumOffset, 3);
        _sum = ((checksum[0] - '0') * 100) + ((checksum[1] - '0') * 10) + (checksum[2] - '0');
    }

    public Side Side { get; }

    public TimeInForce TimeInForce { get; }

    /// <summary>The message as last stamped.</summary>
    public ReadOnlySpan<byte> Message => _bytes.AsSpan(0, _length);

    public int Length => _length;

    /// <summary>Patches every variable field and the CheckSum; <see cref="Message"/> is then ready to send.</summary>
    /// <param name="sendingTime">Unix nanoseconds, written as SendingTime and TransactTime (milliseconds).</param>
    public void Stamp(int seqNum, long sendingTime, OrderKind kind, long number, long price)
    {
        if ((uint)seqNum > MaxSeqNum)
        {
            throw new ArgumentOutOfRangeException(nameof(seqNum), seqNum, "The template holds 9 sequence digits.");
        }

        if (price < 0 || price > _maxPrice)
        {
            throw new ArgumentOutOfRangeException(nameof(price), price, "Price does not fit the template's width.");
        }

        Span<byte> bytes = _bytes;
        int sum = _sum;

        Span<byte> slot = bytes.Slice(_seqOffset, SeqNumDigits);
        sum -= Sum(slot);
        FixInt.WriteDigits((ulong)seqNum, slot);
        sum += Sum(slot);

        slot = bytes.Slice(_sendingTimeOffset, FixTimestamp.MillisecondsLength);
        Span<byte> transact = bytes.Slice(_transactTimeOffset, FixTimestamp.MillisecondsLength);
        sum -= Sum(slot) + Sum(transact);
        FixTimestamp.FormatMilliseconds(sendingTime, slot);
        slot.CopyTo(transact);
        sum += 2 * Sum(slot);

        slot = bytes.Slice(_clOrdIdOffset, ClOrdIdCodec.Length);
        sum -= Sum(slot);
        ClOrdIdCodec.WriteVariablePart(kind, number, slot);
        sum += Sum(slot);

        slot = bytes.Slice(_priceOffset, _priceLength);
        sum -= Sum(slot);
        FormatPrice(price, slot);
        sum += Sum(slot);

        _sum = sum & 0xFF;
        int checksum = _sum;
        Span<byte> digits = bytes.Slice(_checksumOffset, 3);
        digits[0] = (byte)('0' + (checksum / 100));
        digits[1] = (byte)('0' + (checksum / 10 % 10));
        digits[2] = (byte)('0' + (checksum % 10));
    }

    private void FormatPrice(long price, Span<byte> destination)
    {
        FixInt.WriteDigits((ulong)(price / _priceScale), destination[..PriceIntegerDigits]);
        if (_priceDecimals > 0)
        {
            destination[PriceIntegerDigits] = (byte)'.';
            FixInt.WriteDigits((ulong)(price % _priceScale), destination[(PriceIntegerDigits + 1)..]);
        }
    }

    private static int ValueOffset(ReadOnlySpan<byte> message, ReadOnlySpan<byte> tagWithSoh)
    {
        int index = message.IndexOf(tagWithSoh);
        if (index < 0)
        {
            throw new InvalidOperationException("The writer's layout changed: a templated field is missing.");
        }

        return index + tagWithSoh.Length;
    }

    private static int Sum(ReadOnlySpan<byte> bytes)
    {
        int sum = 0;
        foreach (byte b in bytes)
        {
            sum += b;
        }

        return sum;
    }
}
