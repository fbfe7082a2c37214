using System.Runtime.InteropServices;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Core.MarketData;

namespace Exchange.Core.Tests.Reference;

/// <summary>
/// The matching rules written as plainly as possible, for the differential test: each book side is a List of orders
/// kept in priority order (best price first, then arrival), found by linear search. Slow and obviously correct is the
/// point; it shares no code with the engine except the contract types.
/// </summary>
/// <remarks>
/// Order ids are 1, 2, 3... (the comparison maps ids by first appearance, so only consistency matters). Client ids: every
/// (owner, ClOrdID) an accepted command used since the last new trading day, with the order it names (a cancel's id names
/// the order it cancelled; an id a replace moved away from names none); a refused new order naming a resting order of its
/// owner reports that order, and a cancel or replace naming an order that has ended is too late. A new trading day first expires the Day orders still resting,
/// reading each book from the top; an order carried over has its id used on the new day once it leaves the book or its id.
/// </remarks>
public sealed class ReferenceBook : IMatchingEngine
{
    private readonly IReadOnlyList<Instrument> _instruments;
    private readonly List<Order>[] _bids;
    private readonly List<Order>[] _asks;
    private readonly List<EngineEvent> _events = [];
    private readonly int _maxOrders;
    private readonly Dictionary<(int Owner, ClOrdId Id), Order?> _usedToday = [];

    /// <summary>Those of <see cref="_usedToday"/> that were cancel requests' ids.</summary>
    private readonly HashSet<(int Owner, ClOrdId Id)> _cancelIdsToday = [];

    /// <summary>Ids of <see cref="_usedToday"/> a replace moved away from, and the order each named.</summary>
    private readonly Dictionary<(int Owner, ClOrdId Id), Order> _replacedToday = [];
    private readonly int _maxIdsPerDay;
    private long _lastEventId;
    private long _lastTradeId;
    private long _lastOrderId;
    private long _lastSequence;

    public ReferenceBook(IReadOnlyList<Instrument> instruments, EngineOptions options)
    {
        _instruments = instruments;
        _bids = instruments.Select(_ => new List<Order>()).ToArray();
        _asks = instruments.Select(_ => new List<Order>()).ToArray();
        _maxOrders = options.MaxOrders;
        _maxIdsPerDay = options.MaxClOrdIdsPerDay;
    }

    public int RestingOrderCount => _bids.Sum(b => b.Count) + _asks.Sum(a => a.Count);

    /// <summary>Nothing preallocated to touch.</summary>
    public long PreFault() => 0;

    public int ClOrdIdsUsedToday => _usedToday.Count;

    public ReadOnlySpan<EngineEvent> Process(in Command command)
    {
        _events.Clear();
        _lastSequence = command.Sequence;
        Command c = command;
        switch (c.Type)
        {
            case CommandType.NewOrder: NewOrder(c); break;
            case CommandType.Cancel: Cancel(c); break;
            case CommandType.Replace: Replace(c); break;
            case CommandType.NewTradingDay: NewTradingDay(c); break;
            case CommandType.StatusRequest: StatusRequest(c); break;
            case CommandType.MassCancel: MassCancel(c); break;
            case CommandType.CancelOnDisconnect: CancelOwned(c with { InstrumentId = -1, Side = Side.None }, CancelReason.SessionDisconnected); break;
            case CommandType.CancelRefused or CommandType.ReplaceRefused: CancelReject(c, RefusedRequests.ReasonOf(in c), FindLive(c.OwnerId, c.OrigClOrdId)); break;
            default: Reject(c, RejectReason.UnknownCommand); break;
        }

        return CollectionsMarshal.AsSpan(_events);
    }

    private void NewOrder(Command c)
    {
        RejectReason reason = CheckNewOrder(c);
        if (reason != RejectReason.None)
        {
            RefuseNewOrder(c, reason);
            return;
        }

        var order = new Order
        {
            Id = ++_lastOrderId, Instrument = c.InstrumentId, Owner = c.OwnerId, ClOrdId = c.ClOrdId, Side = c.Side,
            Type = c.OrderType, Tif = c.TimeInForce, Price = c.OrderType == OrderType.Market ? 0 : c.Price,
            Quantity = c.Quantity, Leaves = c.Quantity,
        };
        _usedToday.Add((c.OwnerId, c.ClOrdId), order);
        Add(EventType.Accepted, c, order);
        bool stopped = MatchAgainstBook(c, order);
        if (order.Leaves == 0)
        {
            return;
        }

        if (stopped)
        {
            CancelRemainder(c, order, CancelReason.SelfTradePrevention);
            return;
        }

        if (order.Type == OrderType.Market || order.Tif == TimeInForce.ImmediateOrCancel)
        {
            order.Leaves = 0;
            order.EndReason = order.Type == OrderType.Market ? CancelReason.MarketRemainder : CancelReason.ImmediateOrCancelRemainder;
            EngineEvent cancelled = Add(EventType.Cancelled, c, order);
            cancelled.CancelReason = order.Type == OrderType.Market ? CancelReason.MarketRemainder : CancelReason.ImmediateOrCancelRemainder;
            SetLast(cancelled);
            return;
        }

        Insert(order);
    }

    /// <summary>
    /// The report (with the count), then every resting order of the owner on the instrument (or all), of the side (or
    /// both), instrument by instrument, bids then asks, each in priority order, cancelled.
    /// </summary>
    private void MassCancel(Command c)
    {
        if (c.InstrumentId >= _instruments.Count)
        {
            Reject(c, RejectReason.UnknownInstrument);
            EngineEvent refused = _events[^1];
            refused.Type = EventType.MassCancelReport;
            SetLast(refused);
            return;
        }

        Reject(c, RejectReason.None);
        int report = _events.Count - 1;
        int cancelled = CancelOwned(c, CancelReason.MassCancel);
        EngineEvent summary = _events[report];
        summary.Type = EventType.MassCancelReport;
        summary.AffectedOrders = cancelled;
        _events[report] = summary;
    }

    /// <summary>Every resting order of the owner on the command's instrument (all for -1) and side (both for None).</summary>
    private int CancelOwned(Command c, CancelReason reason)
    {
        int cancelled = 0;
        for (int instrument = 0; instrument < _instruments.Count; instrument++)
        {
            if (c.InstrumentId >= 0 && instrument != c.InstrumentId) continue;
            foreach (List<Order> side in new[] { _bids[instrument], _asks[instrument] })
            {
                foreach (Order order in side.Where(o => o.Owner == c.OwnerId && (c.Side == Side.None || o.Side == c.Side)).ToList())
                {
                    side.Remove(order);
                    Settle(order);
                    order.Leaves = 0;
                    order.EndReason = reason;
                    EngineEvent e = Add(EventType.Cancelled, c, order);
                    e.CancelReason = reason;
                    SetLast(e);
                    cancelled++;
                }
            }
        }

        return cancelled;
    }

    /// <summary>
    /// The live order of that owner, id, instrument and side as it stands (echoing the request's id); else an order of
    /// that instrument and side the id named today that has ended, as it ended (no price or terms); else unknown.
    /// </summary>
    private void StatusRequest(Command c)
    {
        Order? live = FindLive(c.OwnerId, c.ClOrdId);
        if (live != null && live.Instrument == c.InstrumentId && live.Side == c.Side)
        {
            EngineEvent status = Add(EventType.OrderStatus, c, live);
            status.OrigClOrdId = c.OrigClOrdId;
            SetLast(status);
            return;
        }

        if (TryReportEnded(c))
        {
            return;
        }

        Reject(c, RejectReason.UnknownOrder);
        EngineEvent unknown = _events[^1];
        unknown.Type = EventType.OrderStatus;
        unknown.OrigClOrdId = c.OrigClOrdId;
        SetLast(unknown);
    }

    /// <summary>The final state of the order of the command's instrument and side its ClOrdId named today, if it has ended.</summary>
    private bool TryReportEnded(Command c, bool ordersOnly = false, bool asReject = false)
    {
        if (_usedToday.GetValueOrDefault((c.OwnerId, c.ClOrdId)) is not { Leaves: 0 } ended || ended.Instrument != c.InstrumentId || ended.Side != c.Side ||
            (ordersOnly && _cancelIdsToday.Contains((c.OwnerId, c.ClOrdId))))
        {
            return false;
        }

        Reject(c, asReject ? RejectReason.DuplicateClOrdId : RejectReason.None);
        EngineEvent status = _events[^1];
        status.Type = asReject ? EventType.Rejected : EventType.OrderStatus;
        status.OrigClOrdId = c.OrigClOrdId;
        status.OrderType = default;
        status.TimeInForce = default;
        status.Price = 0;
        status.OrderId = ended.Id;
        status.OrderQuantity = ended.Quantity;
        status.CumulativeQuantity = ended.Cum;
        status.CumulativeNotional = ended.Notional;
        status.CancelReason = ended.EndReason;
        SetLast(status);
        return true;
    }

    /// <summary>
    /// A refused new order whose id a live order of the same owner holds, or held before a replace, is answered about
    /// that order: its status alone for a possible resend that is only a duplicate, else the reject with that order's
    /// state. A duplicate of an order that has ended (same instrument and side) gets its final state the same way.
    /// Otherwise a plain reject.
    /// </summary>
    private void RefuseNewOrder(Command c, RejectReason reason)
    {
        Order? live = FindLive(c.OwnerId, c.ClOrdId);
        if (live == null && reason == RejectReason.DuplicateClOrdId &&
            _replacedToday.GetValueOrDefault((c.OwnerId, c.ClOrdId)) is { } replaced && Own(replaced).Contains(replaced))
        {
            live = replaced;
        }

        if (live == null && reason == RejectReason.FillOrKillNotFillable)
        {
            // Killed, not rejected: reported as a cancel of an order that never entered the book.
            Reject(c, RejectReason.None);
            EngineEvent killed = _events[^1];
            killed.Type = EventType.Cancelled;
            killed.CancelReason = CancelReason.FillOrKillUnfillable;
            SetLast(killed);
        }
        else if (live == null && !(reason == RejectReason.DuplicateClOrdId && TryReportEnded(c, ordersOnly: true, asReject: !c.PossibleResend)))
        {
            Reject(c, reason);
        }
        else if (live == null)
        {
            // Reported by TryReportEnded.
        }
        else if (c.PossibleResend && reason == RejectReason.DuplicateClOrdId)
        {
            EngineEvent status = Add(EventType.OrderStatus, c, live);
            status.ClOrdId = c.ClOrdId;
            SetLast(status);
        }
        else
        {
            EngineEvent rejected = Add(EventType.Rejected, c, live);
            rejected.RejectReason = reason;
            rejected.ClOrdId = c.ClOrdId;
            SetLast(rejected);
        }
    }

    private RejectReason CheckNewOrder(Command c)
    {
        if (c.InstrumentId < 0 || c.InstrumentId >= _instruments.Count) return RejectReason.UnknownInstrument;
        if (c.Side != Side.Buy && c.Side != Side.Sell) return RejectReason.InvalidSide;
        if (c.OrderType != OrderType.Limit && c.OrderType != OrderType.Market) return RejectReason.InvalidOrderType;
        if (c.TimeInForce is not (TimeInForce.Day or TimeInForce.GoodTillCancel or TimeInForce.ImmediateOrCancel or TimeInForce.FillOrKill))
        {
            return RejectReason.InvalidTimeInForce;
        }

        if (!Enum.IsDefined(c.SelfTradePrevention)) return RejectReason.InvalidSelfTradePrevention;

        Instrument instrument = _instruments[c.InstrumentId];
        RejectReason reason = CheckQuantity(instrument, c.Quantity);
        if (reason != RejectReason.None) return reason;
        if (c.OrderType == OrderType.Limit)
        {
            reason = CheckPrice(instrument, c.Price);
            if (reason != RejectReason.None) return reason;
        }

        if (IsTaken(c.OwnerId, c.ClOrdId)) return RejectReason.DuplicateClOrdId;
        if (_usedToday.Count >= _maxIdsPerDay) return RejectReason.ClOrdIdCapacityExceeded;
        if (RestingOrderCount >= _maxOrders) return RejectReason.CapacityExceeded;
        if (c.TimeInForce == TimeInForce.FillOrKill)
        {
            // What it would trade with: not its owner's orders under self-trade prevention, nor, when prevention
            // stops the incoming order, anything behind the first of them.
            IEnumerable<Order> crossing = Opposite(c.InstrumentId, c.Side).Where(o => Crosses(c.Side, c.OrderType, c.Price, o.Price));
            if (c.SelfTradePrevention is SelfTradePrevention.CancelIncoming or SelfTradePrevention.CancelBoth)
            {
                crossing = crossing.TakeWhile(o => o.Owner != c.OwnerId);
            }
            else if (c.SelfTradePrevention == SelfTradePrevention.CancelResting)
            {
                crossing = crossing.Where(o => o.Owner != c.OwnerId);
            }

            if (crossing.Sum(o => o.Leaves) < c.Quantity) return RejectReason.FillOrKillNotFillable;
        }

        return RejectReason.None;
    }

    private RejectReason CheckQuantity(Instrument instrument, long quantity)
    {
        if (quantity <= 0) return RejectReason.QuantityNotPositive;

        // The fat-finger limit, and no order whose notional at the band's top, or whose quantity held by every order
        // slot, would not fit a long.
        if (quantity > instrument.MaxOrderQuantity ||
            (Int128)quantity * instrument.MaxPrice > long.MaxValue ||
            (Int128)quantity * _maxOrders > long.MaxValue)
        {
            return RejectReason.QuantityTooLarge;
        }

        return quantity % instrument.LotSize != 0 ? RejectReason.QuantityOffLot : RejectReason.None;
    }

    private static RejectReason CheckPrice(Instrument instrument, long price)
    {
        if (price <= 0) return RejectReason.PriceNotPositive;
        if (price % instrument.TickSize != 0) return RejectReason.PriceOffTick;
        if (price < instrument.MinPrice || price > instrument.MaxPrice) return RejectReason.PriceOutOfBand;
        return RejectReason.None;
    }

    private void Cancel(Command c)
    {
        (Order? order, RejectReason reason) = FindForRequest(c);
        if (order == null)
        {
            CancelReject(c, reason, null);
            return;
        }

        if (c.Side != Side.None && c.Side != order.Side)
        {
            CancelReject(c, RejectReason.CancelSideMismatch, order);
            return;
        }

        // A cancel's id may not be used today or held by a resting order, and goes unrecorded once the day's ids are used up.
        if (IsTaken(c.OwnerId, c.ClOrdId))
        {
            CancelReject(c, RejectReason.DuplicateClOrdId, order);
            return;
        }

        if (_usedToday.Count < _maxIdsPerDay)
        {
            _usedToday.Add((c.OwnerId, c.ClOrdId), order);
            _cancelIdsToday.Add((c.OwnerId, c.ClOrdId));
        }

        Settle(order);

        Own(order).Remove(order);
        order.Leaves = 0;
        order.EndReason = CancelReason.Requested;
        EngineEvent e = Add(EventType.Cancelled, c, order);
        e.ClOrdId = c.ClOrdId;
        e.OrigClOrdId = order.ClOrdId;
        e.CancelReason = CancelReason.Requested;
        SetLast(e);
    }

    private void Replace(Command c)
    {
        (Order? order, RejectReason reason) = FindForRequest(c);
        if (order != null)
        {
            Instrument instrument = _instruments[order.Instrument];
            if (c.Side != order.Side) reason = RejectReason.ReplaceSideMismatch;
            else if (c.OrderType != 0 && c.OrderType != order.Type) reason = RejectReason.ReplaceOrderTypeMismatch;
            else if (c.TimeInForce != 0 && c.TimeInForce != order.Tif) reason = RejectReason.ReplaceTimeInForceMismatch;
            else if (!Enum.IsDefined(c.SelfTradePrevention)) reason = RejectReason.InvalidSelfTradePrevention;
            else if (CheckQuantity(instrument, c.Quantity) != RejectReason.None) reason = CheckQuantity(instrument, c.Quantity);
            else if (CheckPrice(instrument, c.Price) != RejectReason.None) reason = CheckPrice(instrument, c.Price);
            else if (IsTaken(c.OwnerId, c.ClOrdId)) reason = RejectReason.DuplicateClOrdId;
            else if (_usedToday.Count >= _maxIdsPerDay) reason = RejectReason.ClOrdIdCapacityExceeded;
        }

        if (order == null || reason != RejectReason.None)
        {
            CancelReject(c, reason, order);
            return;
        }

        _usedToday.Add((c.OwnerId, c.ClOrdId), order);
        Settle(order);
        if (_usedToday.ContainsKey((c.OwnerId, order.ClOrdId)))
        {
            _usedToday[(c.OwnerId, order.ClOrdId)] = null; // still used, but no longer names the order
            _replacedToday[(c.OwnerId, order.ClOrdId)] = order;
        }

        ClOrdId orig = order.ClOrdId;
        if (c.Quantity <= order.Cum)
        {
            Own(order).Remove(order);
            order.Price = c.Price;
            order.Quantity = order.Cum;
            order.Leaves = 0;
            order.EndReason = CancelReason.ReplacedToFilled;
            order.ClOrdId = c.ClOrdId;
            EngineEvent done = Add(EventType.Replaced, c, order);
            done.OrigClOrdId = orig;
            done.CancelReason = CancelReason.ReplacedToFilled;
            SetLast(done);
            return;
        }

        bool keepsPriority = c.Price == order.Price && c.Quantity <= order.Quantity;
        if (!keepsPriority)
        {
            Own(order).Remove(order);
        }

        order.Price = c.Price;
        order.Quantity = c.Quantity;
        order.Leaves = c.Quantity - order.Cum;
        order.ClOrdId = c.ClOrdId;
        EngineEvent replaced = Add(EventType.Replaced, c, order);
        replaced.OrigClOrdId = orig;
        SetLast(replaced);
        if (!keepsPriority)
        {
            bool stopped = MatchAgainstBook(c, order);
            if (order.Leaves > 0 && stopped)
            {
                CancelRemainder(c, order, CancelReason.SelfTradePrevention);
            }
            else if (order.Leaves > 0)
            {
                Insert(order);
            }
        }
    }

    /// <summary>Instrument by instrument, bids then asks, each in priority order: every Day order expires. Then the ids reset.</summary>
    private void NewTradingDay(Command c)
    {
        for (int instrument = 0; instrument < _instruments.Count; instrument++)
        {
            foreach (List<Order> side in new[] { _bids[instrument], _asks[instrument] })
            {
                foreach (Order order in side.Where(o => o.Tif == TimeInForce.Day).ToList())
                {
                    side.Remove(order);
                    order.Leaves = 0;
                    EngineEvent e = Add(EventType.Cancelled, c, order);
                    e.CancelReason = CancelReason.Expired;
                    SetLast(e);
                }
            }
        }

        _usedToday.Clear();
        _cancelIdsToday.Clear();
        _replacedToday.Clear();
    }

    /// <summary>
    /// An order leaving the book or its id: one carried over a new day (its id not used today) has its id used from
    /// now on, naming it, while the day's ids last.
    /// </summary>
    private void Settle(Order order)
    {
        if (!_usedToday.ContainsKey((order.Owner, order.ClOrdId)) && _usedToday.Count < _maxIdsPerDay)
        {
            _usedToday.Add((order.Owner, order.ClOrdId), order);
        }
    }

    /// <summary>
    /// The taker trades with the best opposite order while prices cross; each trade at the resting price. An order of
    /// the taker's owner is, under the command's self-trade prevention, cancelled, or stops the taker (true), or both.
    /// </summary>
    private bool MatchAgainstBook(Command c, Order taker)
    {
        List<Order> opposite = Opposite(taker.Instrument, taker.Side);
        while (taker.Leaves > 0 && opposite.Count > 0 && Crosses(taker.Side, taker.Type, taker.Price, opposite[0].Price))
        {
            Order maker = opposite[0];
            if (c.SelfTradePrevention != SelfTradePrevention.None && maker.Owner == taker.Owner)
            {
                if (c.SelfTradePrevention != SelfTradePrevention.CancelIncoming)
                {
                    opposite.RemoveAt(0);
                    Settle(maker);
                    CancelRemainder(c, maker, CancelReason.SelfTradePrevention);
                }

                if (c.SelfTradePrevention != SelfTradePrevention.CancelResting)
                {
                    return true;
                }

                continue;
            }

            long quantity = Math.Min(taker.Leaves, maker.Leaves);
            long price = maker.Price;
            long tradeId = ++_lastTradeId;
            foreach (Order side in new[] { taker, maker })
            {
                side.Leaves -= quantity;
                side.Cum += quantity;
                side.Notional += price * quantity;
            }

            foreach (Order side in new[] { taker, maker })
            {
                EngineEvent e = Add(EventType.Trade, c, side);
                e.LastPrice = price;
                e.LastQuantity = quantity;
                e.TradeId = tradeId;
                SetLast(e);
            }

            if (maker.Leaves == 0)
            {
                opposite.RemoveAt(0);
                Settle(maker);
            }
        }

        return false;
    }

    /// <summary>An order (out of the book, or never in it) ends cancelled for <paramref name="reason"/> with what it has left.</summary>
    private void CancelRemainder(Command c, Order order, CancelReason reason)
    {
        order.Leaves = 0;
        order.EndReason = reason;
        EngineEvent e = Add(EventType.Cancelled, c, order);
        e.CancelReason = reason;
        SetLast(e);
    }

    private static bool Crosses(Side takerSide, OrderType takerType, long takerPrice, long restingPrice) =>
        takerType == OrderType.Market || (takerSide == Side.Buy ? restingPrice <= takerPrice : restingPrice >= takerPrice);

    /// <summary>Puts the order behind every order at an equal or better price.</summary>
    private void Insert(Order order)
    {
        List<Order> side = Own(order);
        int index = side.FindIndex(o => order.Side == Side.Buy ? o.Price < order.Price : o.Price > order.Price);
        side.Insert(index < 0 ? side.Count : index, order);
    }

    private (Order? Order, RejectReason Reason) FindForRequest(Command c)
    {
        if (c.InstrumentId < 0 || c.InstrumentId >= _instruments.Count) return (null, RejectReason.UnknownInstrument);
        Order? order = FindLive(c.OwnerId, c.OrigClOrdId);
        return order == null || order.Instrument != c.InstrumentId ? (null, RejectReason.UnknownOrder) : (order, RejectReason.None);
    }

    /// <summary>An id a new order or replace may not take: used today, or held by a resting order (from any day).</summary>
    private bool IsTaken(int owner, ClOrdId clOrdId) => _usedToday.ContainsKey((owner, clOrdId)) || FindLive(owner, clOrdId) != null;

    /// <summary>The order of today the request's OrigClOrdID names, on its instrument, if that order has ended.</summary>
    private Order? FindEnded(Command c) =>
        _usedToday.GetValueOrDefault((c.OwnerId, c.OrigClOrdId)) is { Leaves: 0 } order && order.Instrument == c.InstrumentId ? order : null;

    private Order? FindLive(int owner, ClOrdId clOrdId) =>
        _bids.Concat(_asks).SelectMany(side => side).FirstOrDefault(o => o.Owner == owner && o.ClOrdId == clOrdId);

    private List<Order> Own(Order order) => order.Side == Side.Buy ? _bids[order.Instrument] : _asks[order.Instrument];

    private List<Order> Opposite(int instrument, Side side) => side == Side.Buy ? _asks[instrument] : _bids[instrument];

    /// <summary>Appends an event describing <paramref name="order"/> now; returns a copy to adjust and <see cref="SetLast"/>.</summary>
    private EngineEvent Add(EventType type, Command c, Order order)
    {
        var e = new EngineEvent
        {
            Type = type, SourceCommand = c.Type, EventId = ++_lastEventId, Timestamp = c.Timestamp, CommandSequence = c.Sequence,
            Side = order.Side, OrderType = order.Type, TimeInForce = order.Tif, InstrumentId = order.Instrument, OwnerId = order.Owner,
            OrderId = order.Id, Price = order.Price, OrderQuantity = order.Quantity, LeavesQuantity = order.Leaves,
            CumulativeQuantity = order.Cum, CumulativeNotional = order.Notional, ClOrdId = order.ClOrdId,
        };
        _events.Add(e);
        return e;
    }

    /// <summary>Overwrites the last event (events are structs; this keeps Add's callers short).</summary>
    private void SetLast(EngineEvent e) => _events[^1] = e;

    private void Reject(Command c, RejectReason reason) => _events.Add(new EngineEvent
    {
        Type = EventType.Rejected, SourceCommand = c.Type, RejectReason = reason, EventId = ++_lastEventId,
        Timestamp = c.Timestamp, CommandSequence = c.Sequence, Side = c.Side, OrderType = c.OrderType, TimeInForce = c.TimeInForce,
        InstrumentId = c.InstrumentId, OwnerId = c.OwnerId, Price = c.Price, OrderQuantity = c.Quantity, ClOrdId = c.ClOrdId,
    });

    private void CancelReject(Command c, RejectReason reason, Order? order)
    {
        // A replace resent after it was carried out: a duplicate, about the order it made, also when a later replace
        // has moved that order on from the request's ClOrdId.
        if (order == null && reason == RejectReason.UnknownOrder && _replacedToday.GetValueOrDefault((c.OwnerId, c.OrigClOrdId)) is { } replaced &&
            Own(replaced).Contains(replaced) && replaced.Instrument == c.InstrumentId &&
            (replaced.ClOrdId == c.ClOrdId || _replacedToday.GetValueOrDefault((c.OwnerId, c.ClOrdId)) == replaced))
        {
            order = replaced;
            reason = RejectReason.DuplicateClOrdId;
        }

        // The same, when the order it made has ended since (under the request's ClOrdId or a later one): how it ended.
        Order? ended = null;
        if (order == null && reason == RejectReason.UnknownOrder && _replacedToday.GetValueOrDefault((c.OwnerId, c.OrigClOrdId)) is { } made &&
            (_usedToday.GetValueOrDefault((c.OwnerId, c.ClOrdId)) == made || _replacedToday.GetValueOrDefault((c.OwnerId, c.ClOrdId)) == made) &&
            made.Leaves == 0 && made.Instrument == c.InstrumentId)
        {
            ended = made;
            reason = RejectReason.DuplicateClOrdId;
        }

        ended ??= order == null ? FindEnded(c) : null;
        if (ended != null && reason == RejectReason.UnknownOrder)
        {
            reason = RejectReason.TooLateToCancel;
        }

        _events.Add(new EngineEvent
        {
            Type = EventType.CancelRejected, SourceCommand = RefusedRequests.RequestOf(in c), RejectReason = reason, EventId = ++_lastEventId,
            Timestamp = c.Timestamp, CommandSequence = c.Sequence, Side = c.Side, InstrumentId = c.InstrumentId, OwnerId = c.OwnerId,
            ClOrdId = c.ClOrdId, OrigClOrdId = c.OrigClOrdId,
            OrderType = order?.Type ?? default, TimeInForce = order?.Tif ?? default, OrderId = order?.Id ?? 0,
            Price = order?.Price ?? 0, OrderQuantity = order?.Quantity ?? 0, LeavesQuantity = order?.Leaves ?? 0,
            CumulativeQuantity = order?.Cum ?? 0, CumulativeNotional = order?.Notional ?? 0,
        });
        if (ended != null)
        {
            EngineEvent e = _events[^1];
            e.OrderId = ended.Id;
            e.CancelReason = ended.EndReason;
            SetLast(e);
        }
    }

    public void CopyDepth(int instrumentId, ref BookDepth depth)
    {
        depth.InstrumentId = instrumentId;
        depth.CommandSequence = _lastSequence;
        depth.BidCount = FillDepth(_bids[instrumentId], depth.Bids);
        depth.AskCount = FillDepth(_asks[instrumentId], depth.Asks);
    }

    private static int FillDepth(List<Order> side, Span<DepthLevel> destination)
    {
        var levels = side.GroupBy(o => o.Price).Take(destination.Length).ToList(); // GroupBy keeps first-seen (priority) order
        for (int i = 0; i < levels.Count; i++)
        {
            destination[i] = new DepthLevel { Price = levels[i].Key, Quantity = levels[i].Sum(o => o.Leaves), OrderCount = levels[i].Count() };
        }

        return levels.Count;
    }

    public IReadOnlyList<RestingOrder> GetRestingOrders(int instrumentId, Side side) =>
        (side == Side.Buy ? _bids[instrumentId] : _asks[instrumentId])
            .Select(o => new RestingOrder(o.Id, o.Owner, o.ClOrdId, o.Side, o.Price, o.Quantity, o.Leaves, o.Cum))
            .ToList();

    private sealed class Order
    {
        public long Id;
        public int Instrument;
        public int Owner;
        public ClOrdId ClOrdId;
        public Side Side;
        public OrderType Type;
        public TimeInForce Tif;
        public long Price;
        public long Quantity;
        public long Leaves;
        public long Cum;
        public long Notional;

        /// <summary>How the order ended once Leaves is 0: None when it filled.</summary>
        public CancelReason EndReason;
    }
}
