using System.Runtime.CompilerServices;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Mapping;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

// Application messages: D/F/G/H/q mapped to commands, the replies the gateway sends itself, and the hand-over of
// commands to the publisher once the session's lock is released.
internal sealed partial class ConnectionHandler
{
    /// <summary>Commands the current message produced, published by <see cref="HandOnPending"/> after the lock.</summary>
    private Command[] _commands = new Command[4];
    private int _commandCount;

    /// <summary>
    /// Longest unknown Symbol a reject echoes (longer ones are cut): a message may be far larger than the scratch buffer
    /// a reply is encoded into, and the venue's own symbols are at most 32 characters.
    /// </summary>
    private const int MaxEchoedSymbolLength = 64;

    /// <summary>
    /// Longest request Price a reject echoes; a longer one (a decimal padded with zeros) is left out rather than cut,
    /// which would change its value.
    /// </summary>
    private const int MaxEchoedPriceLength = 32;

    /// <summary>The bound session's <see cref="SessionConfig.SelfTradePrevention"/>, which its orders and replaces carry.</summary>
    private SelfTradePrevention _selfTradePrevention;

    /// <summary>The logon's limit of application messages per second (<see cref="SessionConfig.MaxApplicationMessagesPerSecond"/>).</summary>
    private MessageThrottle _throttle;
    private long _throttledCount;

    public void OnApplicationMessage(FixSession session, in InboundMessage message)
    {
        FixMessage parsed = _message;
        bool released = message.Raw != _message.Raw;
        if (released)
        {
            // Delivered from the session's gap queue (a copy): parse it without disturbing the current frame's view.
            parsed = _replay ??= new FixMessage(_s.Options.MaxMessageSize);
            parsed.Parse(message.Raw);
        }

        if (!_throttle.IsUnlimited && !WithinLimit(parsed, released))
        {
            RefuseOverLimit(session, message, parsed);
            return;
        }

        if (TakeFusedCommand(released))
        {
            return;
        }

        int owner = Bound?.OwnerId ?? -1;

        // Mapped straight into the next pending slot (a Command is ~100 bytes; no copy to hand it on). The slot only
        // counts as pending once the mapping succeeded; a rejected command is read from it for the reply.
        ref Command command = ref NextCommandSlot();
        MappingResult result;
        switch (parsed.MsgTypeKind)
        {
            case FixMsgType.NewOrderSingle:
                result = NewOrderSingleReader.Read(parsed, _s.Instruments, owner, _received.UtcNanos, out command);
                command.SelfTradePrevention = _selfTradePrevention;
                break;
            case FixMsgType.OrderCancelRequest:
                result = OrderCancelRequestReader.Read(parsed, _s.Instruments, owner, _received.UtcNanos, out command);
                break;
            case FixMsgType.OrderCancelReplaceRequest:
                result = OrderCancelReplaceRequestReader.Read(parsed, _s.Instruments, owner, _received.UtcNanos, out command);
                command.SelfTradePrevention = _selfTradePrevention;
                break;
            case FixMsgType.OrderStatusRequest:
                result = OrderStatusRequestReader.Read(parsed, _s.Instruments, owner, _received.UtcNanos, out command);
                break;
            case FixMsgType.OrderMassCancelRequest:
                result = OrderMassCancelRequestReader.Read(parsed, _s.Instruments, owner, _received.UtcNanos, out command);
                break;
            case FixMsgType.MarketDataRequest:
                OnMarketDataRequest(session, message, parsed, owner);
                return;
            default:
                // InboundMessages classifies only D/F/G/H/q/V as Application.
                session.Reject(message, SessionRejectReason.InvalidMsgType, FixTags.MsgType, default);
                return;
        }

        switch (result.Outcome)
        {
            case MappingOutcome.Ok:
                _commandCount++;
                break;
            case MappingOutcome.SessionReject:
                session.Reject(message, result.SessionReason, result.RefTag, result.Text);
                break;
            case MappingOutcome.BusinessReject when command.Type is CommandType.Cancel or CommandType.Replace:
                // The engine answers it: the OrderCancelReject reports the order's state (OrdStatus, OrderID), which
                // only the engine knows. A new order's reject needs no state, so the gateway sends that one itself.
                RefusedRequests.Refuse(ref command, result.Reason);
                _commandCount++;
                break;
            default:
                SendOrderReject(session, command, result.Reason, parsed.GetSpan(FixTags.Symbol), default, MassCancelRequestTypeOf(parsed), parsed);
                break;
        }
    }

    /// <summary>
    /// Counts the message against the logon's limit; false when it is over the limit and must be refused. Messages
    /// that only take something away (a cancel, a mass cancel, a market-data unsubscribe) are never refused, since
    /// refusing one would leave the client at risk or streamed, and neither are those the session releases from its
    /// gap queue (they arrived earlier, while the gap was open); all of them count, so new orders after a flood of them
    /// wait the longer.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool WithinLimit(FixMessage parsed, bool released)
    {
        long now = _received.MonotonicNanos;
        bool takesAway = parsed.MsgTypeKind is FixMsgType.OrderCancelRequest or FixMsgType.OrderMassCancelRequest ||
            (parsed.MsgTypeKind == FixMsgType.MarketDataRequest && IsUnsubscribe(parsed));
        if (takesAway || released)
        {
            _throttle.Take(now);
            return true;
        }

        return _throttle.TryTake(now);
    }

    /// <summary>
    /// A message over the logon's limit is not acted on and not even mapped: a BusinessMessageReject (35=j) says so,
    /// naming the message by MsgSeqNum, MsgType and its own id (ClOrdID, or MDReqID), so the client knows that
    /// message did nothing, without the venue claiming anything about an order. The first refusal of a logon is
    /// logged, then every thousandth, so a flood does not flood the log.
    /// </summary>
    private void RefuseOverLimit(FixSession session, in InboundMessage message, FixMessage parsed)
    {
        if (_throttledCount++ % 1000 == 0)
        {
            IFixConnection connection = Transport.Connection;
            _s.Log.Warn($"connection {connection.Id} ({connection.RemoteEndPoint}): over its limit of {_throttle.PerSecond} application messages per second, refused; {_throttledCount} so far");
        }

        _s.CountOverLimitRefusal();
        if (parsed.MsgTypeKind is FixMsgType.NewOrderSingle or FixMsgType.OrderCancelReplaceRequest)
        {
            _s.CountReject(); // An order or replace refused before the matcher, as the client sees it.
        }

        ReadOnlySpan<byte> refId = parsed.MsgTypeKind == FixMsgType.MarketDataRequest ? parsed.GetSpan(FixTags.MDReqID) : parsed.GetSpan(FixTags.ClOrdID);
        int length = BusinessMessageRejectEncoder.EncodeBody(_scratch, message.MsgSeqNum, message.MsgType, refId, BusinessRejectReason.Other, OverLimitText);
        session.SendApplication("j"u8, _scratch.AsSpan(0, length));
    }

    private static ReadOnlySpan<byte> OverLimitText => "Throttle limit exceeded: too many messages per second on this session"u8;

    /// <summary>MassCancelRequestType (530) of a parsed 35=q, or 0 for any other message or an unreadable value.</summary>
    private static byte MassCancelRequestTypeOf(FixMessage message) =>
        message.MsgTypeKind == FixMsgType.OrderMassCancelRequest && message.ReadChar(FixTags.MassCancelRequestType, out byte type) == FieldStatus.Ok
            ? type
            : (byte)0;

    /// <summary>
    /// Answers a command the gateway refuses itself (mapping business reject, venue stopping) the way the engine would:
    /// ExecutionReport 35=8 ExecType=8 for a new order, ExecType=I for a status request, OrderCancelReject 35=9 for a
    /// cancel or replace, OrderMassCancelReport 35=r (531=0) for a mass cancel.
    /// </summary>
    /// <param name="massCancelRequestType">For a mass cancel, the request's MassCancelRequestType (530) to echo; 0 to
    /// derive it from the command.</param>
    /// <param name="request">The refused request when its mapping may have stopped short of its price: a new order's
    /// report then echoes the request's Price as sent (see <see cref="ExecutionReportEncoder.EncodeRequestRejectBody"/>).
    /// Null for a command mapped in full.</param>
    private void SendOrderReject(
        FixSession session,
        in Command command,
        RejectReason reason,
        ReadOnlySpan<byte> requestSymbol,
        ReadOnlySpan<byte> text,
        byte massCancelRequestType = 0,
        FixMessage? request = null)
    {
        RejectEvents.FromCommand(command, reason, _s.NextExecId(), out EngineEvent rejected);
        if (rejected.Type is EventType.Rejected or EventType.CancelRejected)
        {
            // Counted as the matcher counts its own: rejected orders and cancel/replace requests, not status answers
            // or empty mass-cancel reports.
            _s.CountReject();
        }
        requestSymbol = requestSymbol[..Math.Min(requestSymbol.Length, MaxEchoedSymbolLength)];
        if (rejected.Type == EventType.MassCancelReport)
        {
            int reportLength = OrderMassCancelReportEncoder.EncodeBody(
                _scratch, rejected, _s.Instruments.SymbolOf(command.InstrumentId, requestSymbol), massCancelRequestType, text);
            session.SendApplication("r"u8, _scratch.AsSpan(0, reportLength));
        }
        else if (rejected.Type != EventType.CancelRejected)
        {
            bool known = _s.Instruments.TryGetById(command.InstrumentId, out Instrument? instrument);
            ReadOnlySpan<byte> symbol = known ? _s.Instruments.SymbolOf(command.InstrumentId) : requestSymbol;
            int decimals = known ? instrument!.PriceDecimals : 0;
            int length = request is null
                ? ExecutionReportEncoder.EncodeBody(_scratch, rejected, symbol, decimals, text)
                : ExecutionReportEncoder.EncodeRequestRejectBody(_scratch, rejected, symbol, decimals, text, EchoedPrice(request));
            session.SendApplication("8"u8, _scratch.AsSpan(0, length));
        }
        else
        {
            int length = OrderCancelRejectEncoder.EncodeBody(_scratch, rejected, text);
            session.SendApplication("9"u8, _scratch.AsSpan(0, length));
        }
    }

    private static ReadOnlySpan<byte> EchoedPrice(FixMessage request)
    {
        ReadOnlySpan<byte> price = request.GetSpan(FixTags.Price);
        return price.Length <= MaxEchoedPriceLength ? price : default;
    }

    /// <summary>The slot after the pending commands; it becomes pending when the caller increments the count.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ref Command NextCommandSlot()
    {
        if (_commandCount == _commands.Length)
        {
            GrowCommands();
        }

        return ref _commands[_commandCount];
    }

    /// <summary>Only a burst released from the gap queue gets here; steady state holds one command at a time.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void GrowCommands() => Array.Resize(ref _commands, _commands.Length * 2);

    /// <summary>Publishes what the last message produced, outside the session lock.</summary>
    private void HandOnPending()
    {
        GatewaySession? gs = Bound;
        for (int i = 0; i < _commandCount; i++)
        {
            ref readonly Command command = ref _commands[i];
            if (!_s.Publisher.TryPublish(command) && gs is not null)
            {
                RejectStopping(gs, command);
            }
        }

        _commandCount = 0;
        for (int i = 0; i < _subscriptionCount; i++)
        {
            _s.MarketData.OnMarketDataRequest(gs!.OwnerId, _subscriptions[i]);
        }

        _subscriptionCount = 0;
    }

    private void RejectStopping(GatewaySession gs, in Command command)
    {
        lock (gs.Lock)
        {
            ConnectionTransport? transport = gs.Transport;
            try
            {
                // A refused request keeps its own reason; it goes without the order's state, as the engine is gone.
                bool refusal = RefusedRequests.IsRefusal(in command);
                SendOrderReject(
                    gs.Session, command, refusal ? RefusedRequests.ReasonOf(in command) : RejectReason.None, default, refusal ? default : "venue is stopping"u8);
            }
            finally
            {
                transport?.EndSection();
            }
        }
    }
}
