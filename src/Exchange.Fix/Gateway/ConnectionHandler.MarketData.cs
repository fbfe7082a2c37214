using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Mapping;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

// MarketDataRequest (V): subscriptions and unsubscriptions for the market-data handler, and the requests refused.
internal sealed partial class ConnectionHandler
{
    /// <summary>Subscription changes the current message produced, handed on by <see cref="HandOnPending"/> after the lock.</summary>
    private MarketDataSubscription[] _subscriptions = new MarketDataSubscription[4];
    private int _subscriptionCount;

    /// <summary>MDReqIDs of the live subscriptions this logon made; made on the first MarketDataRequest.</summary>
    private HashSet<ClOrdId>? _liveMdReqIds;

    /// <summary>Longest MDReqID a MarketDataRequestReject echoes (longer ones are cut).</summary>
    private const int MaxEchoedMdReqIdLength = 64;

    /// <summary>A MarketDataRequest whose SubscriptionRequestType (263) is 2: it ends a subscription.</summary>
    private static bool IsUnsubscribe(FixMessage parsed) =>
        parsed.ReadChar(FixTags.SubscriptionRequestType, out byte requestType) == FieldStatus.Ok && requestType == (byte)'2';

    private void OnMarketDataRequest(FixSession session, in InboundMessage message, FixMessage parsed, int owner)
    {
        // An unsubscribe names a live subscription by its MDReqID: it ends it whatever else it lists (a symbol since
        // removed from the configuration, entry types), so it is looked up before the request's other checks.
        if (IsUnsubscribe(parsed) &&
            ClOrdId.TryCreate(parsed.GetSpan(FixTags.MDReqID), out ClOrdId unsubscribed) && _liveMdReqIds?.Remove(unsubscribed) == true)
        {
            AddSubscription(new MarketDataSubscription { MdReqId = unsubscribed, SubscriptionRequestType = (byte)'2', InstrumentId = -1, Login = _login });
            return;
        }

        MappingResult result = MarketDataRequestReader.Read(parsed, _s.Instruments, _mdInstrumentIds, out MarketDataRequest request);
        if (result.Outcome == MappingOutcome.SessionReject)
        {
            session.Reject(message, result.SessionReason, result.RefTag, result.Text);
            return;
        }

        ReadOnlySpan<byte> id = parsed.GetSpan(FixTags.MDReqID);
        if (result.Outcome == MappingOutcome.BusinessReject)
        {
            MarketDataRejectReason reason = result.Reason switch
            {
                RejectReason.UnknownInstrument => MarketDataRejectReason.UnknownSymbol,
                RejectReason.CapacityExceeded => MarketDataRejectReason.InsufficientBandwidth,
                _ => MarketDataRejectReason.UnsupportedMdEntryType,
            };
            SendMarketDataReject(session, id, reason, result.Text);
            return;
        }

        if (!ClOrdId.TryCreate(request.MdReqId, out ClOrdId mdReqId))
        {
            SendMarketDataReject(session, id, MarketDataRejectReason.None, "MDReqID longer than 32 characters"u8);
            return;
        }

        if ((request.EntryTypeMask & 0b11) == 0 || (request.EntryTypeMask & ~0b11) != 0)
        {
            // Asking for trades (2) or anything else along with the book is refused rather than half served.
            SendMarketDataReject(session, id, MarketDataRejectReason.UnsupportedMdEntryType, "Only bids (0) and offers (1) are published"u8);
            return;
        }

        if (parsed.TryGetBool(FixTags.AggregatedBook, out bool aggregated) && !aggregated)
        {
            SendMarketDataReject(session, id, MarketDataRejectReason.UnsupportedAggregatedBook, "Only the book aggregated by price (266=Y) is published"u8);
            return;
        }

        if (request.SubscriptionRequestType == (byte)'1' && parsed.TryGetInt(FixTags.MDUpdateType, out int updateType) && updateType != 1)
        {
            SendMarketDataReject(session, id, MarketDataRejectReason.UnsupportedMdUpdateType, "Only incremental refresh (265=1) is published"u8);
            return;
        }

        if (request.MarketDepth is 0 or > Core.MarketData.BookDepth.MaxLevels)
        {
            // 0 is the full book, which the venue does not publish: serving 10 levels instead would look like the whole book.
            SendMarketDataReject(session, id, MarketDataRejectReason.UnsupportedMarketDepth, "MarketDepth (264) must be 1 to 10: the top 10 levels are published"u8);
            return;
        }

        // MDReqIDs of this logon's live subscriptions: a new request may not reuse one (its stream would be replaced or
        // ended silently), and an unsubscribe must name one.
        HashSet<ClOrdId> live = _liveMdReqIds ??= [];
        if (request.SubscriptionRequestType == (byte)'2')
        {
            // A live one was ended above.
            SendMarketDataReject(session, id, MarketDataRejectReason.None, "Unknown MDReqID: no subscription of this session has it"u8);
            return;
        }

        if (live.Contains(mdReqId))
        {
            SendMarketDataReject(session, id, MarketDataRejectReason.DuplicateMdReqId, "MDReqID already names a live subscription of this session"u8);
            return;
        }

        if (request.SubscriptionRequestType == (byte)'1')
        {
            if (live.Count >= _s.Options.MaxMarketDataSubscriptions)
            {
                SendMarketDataReject(session, id, MarketDataRejectReason.InsufficientBandwidth, "Too many live market-data subscriptions on this session"u8);
                return;
            }

            live.Add(mdReqId);
        }

        for (int i = 0; i < request.SymbolCount; i++)
        {
            if (_mdInstrumentIds.AsSpan(0, i).Contains(_mdInstrumentIds[i]))
            {
                continue; // a symbol listed twice is one stream, not two
            }

            AddSubscription(new MarketDataSubscription
            {
                MdReqId = mdReqId,
                SubscriptionRequestType = request.SubscriptionRequestType,
                MarketDepth = request.MarketDepth,
                InstrumentId = _mdInstrumentIds[i],
                EntryTypes = (byte)(request.EntryTypeMask & 0b11), // bit 0 = type 0 (bids), bit 1 = type 1 (offers)
                Login = _login,
            });
        }
    }

    /// <summary>Queues a subscription change for the market-data handler (handed on after the session's lock is released).</summary>
    private void AddSubscription(in MarketDataSubscription subscription)
    {
        if (_subscriptionCount == _subscriptions.Length)
        {
            Array.Resize(ref _subscriptions, _subscriptions.Length * 2);
        }

        _subscriptions[_subscriptionCount++] = subscription;
    }

    private void SendMarketDataReject(FixSession session, ReadOnlySpan<byte> mdReqId, MarketDataRejectReason reason, ReadOnlySpan<byte> text)
    {
        // The echo is cut to a length that always fits the reply: an inbound message may carry a far longer value.
        mdReqId = mdReqId[..Math.Min(mdReqId.Length, MaxEchoedMdReqIdLength)];
        int length = MarketDataRequestRejectEncoder.EncodeBody(_scratch, mdReqId, reason, text);
        session.SendApplication("Y"u8, _scratch.AsSpan(0, length));
    }
}
