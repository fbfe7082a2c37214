using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Decodes a MarketDataRequest (35=V) into instrument ids and subscription parameters. No allocation.</summary>
public static class MarketDataRequestReader
{
    /// <summary>
    /// Reads MDReqID, SubscriptionRequestType, MarketDepth, the MDEntryType group and the NoRelatedSym symbols.
    /// Business rejects (answer with MarketDataRequestReject 35=Y): an unknown symbol (UnknownInstrument, RefTag 55), a
    /// symbol qualified as another instrument (SecurityType other than CS, SecurityID, option or future terms...: see
    /// <see cref="OrderFields.NamesMoreThanSymbol"/>; UnknownInstrument, RefTag that field),
    /// more symbols than <paramref name="instrumentIds"/> holds (CapacityExceeded), an MDEntryType other than 0..9.
    /// </summary>
    public static MappingResult Read(FixMessage message, InstrumentDirectory instruments, Span<int> instrumentIds, out MarketDataRequest request)
    {
        request = default;
        ReadOnlySpan<byte> id = message.GetSpan(FixTags.MDReqID);
        if (id.IsEmpty)
        {
            return MappingResult.Session(FixTags.MDReqID, SessionRejectReason.RequiredTagMissing);
        }

        FieldStatus status = message.ReadChar(FixTags.SubscriptionRequestType, out byte subscription);
        if (status != FieldStatus.Ok)
        {
            return MappingResult.Session(FixTags.SubscriptionRequestType, status);
        }

        if (subscription is not ((byte)'0' or (byte)'1' or (byte)'2'))
        {
            return MappingResult.Session(FixTags.SubscriptionRequestType, SessionRejectReason.ValueIsIncorrect);
        }

        status = message.ReadInt(FixTags.MarketDepth, out int depth);
        if (status != FieldStatus.Ok || depth < 0)
        {
            return MappingResult.Session(FixTags.MarketDepth, status == FieldStatus.Ok ? FieldStatus.OutOfRange : status);
        }

        status = message.ReadInt(FixTags.NoRelatedSym, out int declaredSymbols);
        if (status != FieldStatus.Ok)
        {
            return MappingResult.Session(FixTags.NoRelatedSym, status);
        }

        int symbols = 0;
        int entryTypes = 0;
        for (int i = 0; i < message.FieldCount; i++)
        {
            int tag = message.TagAt(i);
            if (tag == FixTags.MDEntryType)
            {
                ReadOnlySpan<byte> type = message.ValueAt(i);
                if (type.Length != 1 || (uint)(type[0] - '0') > 9)
                {
                    return MappingResult.Business(FixTags.MDEntryType, RejectReason.UnknownCommand);
                }

                entryTypes |= 1 << (type[0] - '0');
            }
            else if (tag == FixTags.Symbol)
            {
                if (symbols == instrumentIds.Length)
                {
                    return MappingResult.Business(FixTags.NoRelatedSym, RejectReason.CapacityExceeded);
                }

                if (!instruments.TryGet(message.ValueAt(i), out Instrument? instrument))
                {
                    return MappingResult.Business(FixTags.Symbol, RejectReason.UnknownInstrument);
                }

                instrumentIds[symbols++] = instrument.Id;
            }
            else if (OrderFields.NamesMoreThanSymbol(tag, message.ValueAt(i)))
            {
                // The venue lists instruments by Symbol alone (as for orders): data for "AAPL" with option terms or
                // another SecurityID would be the stock's book under the client's name for something else.
                return MappingResult.Business(tag, RejectReason.UnknownInstrument);
            }
        }

        if (symbols != declaredSymbols || symbols == 0)
        {
            return MappingResult.Session(FixTags.NoRelatedSym, SessionRejectReason.IncorrectNumInGroupCount);
        }

        request = new MarketDataRequest(id, subscription, depth, entryTypes, symbols);
        return MappingResult.Ok;
    }
}
