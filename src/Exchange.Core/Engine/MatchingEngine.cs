using System.Runtime.CompilerServices;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Core.MarketData;
using Exchange.Core.Strategies;

namespace Exchange.Core.Engine;

/// <summary>
/// Price-time priority matching for all instruments, closed over its two strategies: the order list at a price level
/// and the price-level index per book side. Both are structs reached through constrained generics, so the JIT
/// specialises each combination and strategy calls are direct (no interface dispatch per operation).
/// </summary>
/// <remarks>
/// <para>Threading: single writer; every member is called from the matcher thread.</para>
/// <para>Allocation: pools (orders, levels, client-id index, event buffer) are sized from <see cref="EngineOptions"/> and
/// grow by doubling; the day's used client ids are allocated whole and never grow; a steady-state command allocates
/// nothing.</para>
/// <para>Determinism: output depends only on the command sequence (no clock, no randomness, no hash-order iteration).</para>
/// <para>Event semantics chosen here (the issue leaves them open):</para>
/// <list type="bullet">
/// <item>A FOK order that cannot fill completely is killed: one <see cref="EventType.Cancelled"/> event with
/// <see cref="CancelReason.FillOrKillUnfillable"/>, no Accepted event and no order id (it never entered the book, and
/// its ClOrdID is not used up, as for a rejected order). FIX venues report the kill as Canceled (150=4, 39=4), as they
/// do an IOC remainder, not as a reject.</item>
/// <item>A replace down to or below the filled quantity emits one <see cref="EventType.Replaced"/> event with
/// LeavesQuantity 0 and <see cref="CancelReason.ReplacedToFilled"/>; the order is done. Its OrderQuantity is reported
/// as the cumulative quantity so OrderQty = CumQty + LeavesQty holds in every report.</item>
/// <item>Client ids are unique per owner per trading day, as FIX venues require, so a client resending an order it got
/// no answer for cannot trade it twice. The ClOrdID of a new order, the new ClOrdID of a replace and the ClOrdID of a
/// cancel are each rejected with <see cref="RejectReason.DuplicateClOrdId"/> when the owner already used it today in an
/// accepted command (an order since filled, cancelled or expired included, and the id an order carried over a
/// <see cref="CommandType.NewTradingDay"/> had when it left the book or its id that day), and when a resting order
/// has it (one carried over). A rejected command uses no id: it changed nothing, and the corrected order may be sent
/// again under the same id.</item>
/// <item>A refused new order whose client id names a live order of the same owner (a resent or reused id) must not read
/// as that order's end, so its event describes the live order, as FIX 4.4 Volume 4, Appendix D, scenario "Poss resend
/// and duplicate ClOrdID" answers both cases: a PossResend of an order already received gets an Order Status with the
/// order's current state (here <see cref="EventType.OrderStatus"/>, when <see cref="Command.PossibleResend"/> is set and
/// the id is the only fault), and any other duplicate gets a reject of the new order merged with the status of the
/// existing one (here <see cref="EventType.Rejected"/> with the reason and the live order's id, terms and quantities).
/// An id a replace moved away from still names its order here, while it lives. An order that ended today (same
/// instrument and side, under an order's id rather than a cancel's) is answered the same way with its final state (no
/// leaves, no price or terms, which are not kept): an OrderStatus event for a possible resend, else the
/// <see cref="RejectReason.DuplicateClOrdId"/> reject with that state. Any other reuse of a used id is a plain
/// duplicate reject.</item>
/// <item>The day's ids are bounded by <see cref="EngineOptions.MaxClOrdIdsPerDay"/>. When they run out, new orders and
/// replaces get <see cref="RejectReason.ClOrdIdCapacityExceeded"/>, but cancels are still carried out (taking risk off
/// must always work) with their own ids left unrecorded: for the rest of the day no new order or replace can reuse
/// one anyway.</item>
/// <item>A replace re-keys the order under its new client id. A Side other than the order's gives
/// <see cref="RejectReason.ReplaceSideMismatch"/>, and a cancel's <see cref="RejectReason.CancelSideMismatch"/>: a
/// request that names the order by id and the wrong side is more likely a client's mistake about which order it means
/// than a wish to cancel it. A cancel with <see cref="Side.None"/> does not check (journals older than that rule
/// replay their cancels so).</item>
/// <item>CancelRejected carries the request's ids and, when the order exists, its unchanged state (for OrdStatus). A
/// cancel or replace naming an order that has ended today (filled or cancelled, a carried one included; by its id at
/// the end, or the id of the cancel that ended it when that was recorded) gets <see cref="RejectReason.TooLateToCancel"/>
/// with that order's id and how it ended; a replace resent after it was carried out (its OrigClOrdId replaced away, its
/// ClOrdId the order's) gets <see cref="RejectReason.DuplicateClOrdId"/> with the order's state, or how it ended; any
/// other request from an id a replace moved away from, an order of an earlier day (so one a new day
/// expired), or an order of another instrument stays an <see cref="RejectReason.UnknownOrder"/>, and so does an order
/// that ended once the day's ids were full, whose id could not be recorded.</item>
/// <item>Capacity: a new order is rejected with CapacityExceeded when <see cref="EngineOptions.MaxOrders"/> orders rest.</item>
/// <item>A <see cref="CommandType.NewTradingDay"/> expires every resting Day order with a Cancelled event
/// (<see cref="CancelReason.Expired"/>, the order's own ClOrdID) before it forgets the day's ids; GoodTillCancel
/// orders rest on and keep their ids, recorded as used on the new day when they leave the book or their id.</item>
/// <item>Self-trade prevention (<see cref="Command.SelfTradePrevention"/> of the incoming new order or replace): a
/// resting order of the same owner it meets is cancelled and matching goes on, or the incoming remainder is cancelled
/// there, or both; each such Cancelled event has <see cref="CancelReason.SelfTradePrevention"/>. A FOK counts only
/// what it would trade with. A mode outside the four is refused with <see cref="RejectReason.InvalidSelfTradePrevention"/>.</item>
/// <item>A <see cref="CommandType.CancelOnDisconnect"/> cancels all the owner's resting orders (no report first,
/// <see cref="CancelReason.SessionDisconnected"/>), in the order of a mass cancel of everything.</item>
/// </list>
/// </remarks>
public sealed partial class MatchingEngine<TOrderList, TLevelIndex> : IMatchingEngine
    where TOrderList : struct, IOrderList
    where TLevelIndex : struct, IPriceLevelIndex
{
    private const int InitialEventCapacity = 256;

    private readonly Instrument[] _instruments;
    private readonly TradingLimits[] _limits;
    private readonly BookSides<TLevelIndex>[] _books;
    private readonly OrderStore _orders;
    private readonly LevelPool<TOrderList> _levels;
    private readonly ClOrdIdIndex _clOrdIds;
    private readonly UsedClOrdIds _usedClOrdIds;

    /// <summary>
    /// Live orders whose id today's used set lacks: those carried over a new trading day (GoodTillCancel), until they
    /// leave the book or their id (<see cref="SettleCarried"/>). While there are none, an id the set does not hold cannot
    /// name a live order, so a new order, replace or cancel skips the probe of the live index (<see cref="IsTaken"/>),
    /// a cache miss per order, and the end of an order needs no check. Set to every live order when a day begins.
    /// </summary>
    private int _carriedLiveOrders;

    private readonly EventBuffer _events;
    private long _lastTradeId;
    private long _lastCommandSequence;

    public MatchingEngine(IReadOnlyList<Instrument> instruments, EngineOptions options)
    {
        ArgumentNullException.ThrowIfNull(instruments);
        ArgumentNullException.ThrowIfNull(options);
        _instruments = new Instrument[instruments.Count];
        _limits = new TradingLimits[instruments.Count];
        _books = new BookSides<TLevelIndex>[instruments.Count];
        for (int i = 0; i < instruments.Count; i++)
        {
            Instrument instrument = instruments[i];
            if (instrument.Id != i || instrument.TickSize <= 0 || instrument.LotSize <= 0 ||
                instrument.MinPrice <= 0 || instrument.MaxPrice < instrument.MinPrice)
            {
                throw new ArgumentException(
                    $"Instrument at index {i} ({instrument.Symbol}) must have Id {i}, positive tick and lot, and 0 < MinPrice <= MaxPrice.",
                    nameof(instruments));
            }

            _instruments[i] = instrument;
            _limits[i] = new TradingLimits(instrument, options.MaxOrders);
            _books[i].Initialize(instrument);
        }

        _orders = new OrderStore(options.InitialOrderCapacity, options.MaxOrders);
        _levels = new LevelPool<TOrderList>(options.InitialLevelCapacity);
        // Sized for up to 64 K live orders and grown by doubling beyond: the order store's initial capacity is often far
        // above the live count (it covers orders that come and go), and a sparse index only costs cache misses.
        _clOrdIds = new ClOrdIdIndex(Math.Min(Math.Min(options.InitialOrderCapacity, options.MaxOrders), 1 << 16), _orders);
        _usedClOrdIds = new UsedClOrdIds(options.MaxClOrdIdsPerDay);
        _events = new EventBuffer(InitialEventCapacity);
    }

    public int RestingOrderCount => _orders.LiveCount;

    public int ClOrdIdsUsedToday => _usedClOrdIds.Count;

    public long PreFault() => _orders.PreFault() + _levels.PreFault() + _clOrdIds.PreFault() + _usedClOrdIds.PreFault();

    public ReadOnlySpan<EngineEvent> Process(in Command command)
    {
        _events.Clear();
        _lastCommandSequence = command.Sequence;
        switch (command.Type)
        {
            case CommandType.NewOrder:
                ProcessNewOrder(in command);
                break;
            case CommandType.Cancel:
                ProcessCancel(in command);
                break;
            case CommandType.Replace:
                ProcessReplace(in command);
                break;
            case CommandType.NewTradingDay:
                ProcessNewTradingDay(in command);
                break;
            case CommandType.ReserveEventIds:
                _events.ReserveThrough(command.Quantity);
                break;
            case CommandType.ReserveEventAndOrderIds:
                // Each lost order took one slot and emitted at least its Accepted event: skip that many generations.
                _orders.SkipGenerations((uint)Math.Clamp(command.Quantity - _events.LastEventId, 0, int.MaxValue));
                _events.ReserveThrough(command.Quantity);
                break;
            case CommandType.CancelRefused:
            case CommandType.ReplaceRefused:
                ProcessRefusedRequest(in command);
                break;
            case CommandType.StatusRequest:
                ProcessStatusRequest(in command);
                break;
            case CommandType.MassCancel:
                ProcessMassCancel(in command);
                break;
            case CommandType.CancelOnDisconnect:
                CancelOwnerOrders(in command, 0, _books.Length - 1, Side.None, CancelReason.SessionDisconnected);
                break;
            default:
                EmitRejected(in command, RejectReason.UnknownCommand);
                break;
        }

        return _events.AsSpan();
    }

    private void ProcessNewOrder(in Command command)
    {
        ulong clOrdIdGroupHash = ClOrdIdHash.Group(command.OwnerId, command.ClOrdId);
        ulong clOrdIdHash = ClOrdIdHash.Full(clOrdIdGroupHash, command.ClOrdId);
        RejectReason reason = ValidateNewOrder(in command, clOrdIdGroupHash, clOrdIdHash, out int freeBucket);
        if (reason != RejectReason.None)
        {
            RefuseNewOrder(in command, clOrdIdHash, reason);
            return;
        }

        ref BookSides<TLevelIndex> book = ref _books[command.InstrumentId];
        bool isBuy = command.Side == Side.Buy;
        bool isMarket = command.OrderType == OrderType.Market;
        long limit = OrderValidation.EffectiveLimit(isBuy, command.OrderType, command.Price);
        if (command.TimeInForce == TimeInForce.FillOrKill &&
            !CanFillCompletely(ref isBuy ? ref book.Asks : ref book.Bids, isBuy, limit, command.Quantity, in command))
        {
            ref EngineEvent killed = ref Refuse(in command, RejectReason.None);
            killed.Type = EventType.Cancelled;
            killed.CancelReason = CancelReason.FillOrKillUnfillable;
            return;
        }

        int slot = _orders.Allocate();
        ref OrderSlot order = ref _orders[slot];
        // The id is used from here on, whatever becomes of the order (an IOC that expires unfilled included).
        order.UsedIdStamp = _usedClOrdIds.Record(freeBucket, clOrdIdGroupHash, command.OwnerId, command.ClOrdId, order.OrderId, command.InstrumentId);
        order.InstrumentId = command.InstrumentId;
        order.OwnerId = command.OwnerId;
        order.Side = command.Side;
        order.OrderType = command.OrderType;
        order.TimeInForce = command.TimeInForce;
        order.Price = isMarket ? 0 : command.Price;
        order.OrderQuantity = command.Quantity;
        order.LeavesQuantity = command.Quantity;
        order.ClOrdId = command.ClOrdId;
        order.ClOrdIdHash = clOrdIdHash;
        book.Version++;

        Emit(EventType.Accepted, in command, ref order);
        bool stopped = Match(slot, ref isBuy ? ref book.Asks : ref book.Bids, limit, in command);

        if (order.LeavesQuantity == 0)
        {
            ReleaseEnded(slot, CancelReason.None);
        }
        else if (stopped)
        {
            CancelSelfTradeTaker(slot, in command);
        }
        else if (isMarket || command.TimeInForce == TimeInForce.ImmediateOrCancel)
        {
            // FOK never gets here: it passed the fillability check, so it filled completely.
            order.LeavesQuantity = 0;
            ref EngineEvent cancelled = ref Emit(EventType.Cancelled, in command, ref order);
            cancelled.CancelReason = isMarket ? CancelReason.MarketRemainder : CancelReason.ImmediateOrCancelRemainder;
            ReleaseEnded(slot, cancelled.CancelReason);
        }
        else
        {
            Rest(slot, ref isBuy ? ref book.Bids : ref book.Asks);
            IndexLive(clOrdIdHash, slot);
        }
    }

    /// <summary>
    /// Answers a new order that will not be entered: about the owner's live order when the client id names one (see the
    /// remarks on the class), otherwise a plain reject echoing the command. Off the accepted path: the extra probe of the
    /// live index is paid by refused orders only.
    /// </summary>
    private void RefuseNewOrder(in Command command, ulong clOrdIdHash, RejectReason reason)
    {
        bool duplicate = reason == RejectReason.DuplicateClOrdId;
        if (!_clOrdIds.TryFind(clOrdIdHash, command.OwnerId, command.ClOrdId, out int slot) &&
            !(duplicate && TryFindReplacedLive(command.OwnerId, command.ClOrdId, out slot)))
        {
            // A duplicate of an order that has since ended is answered about it as about a live one: its final status for
            // a possible resend, else the reject with that status (but not one under a cancel's id: no order was
            // received under it).
            if (!(duplicate && TryReportEnded(in command, ordersOnly: true, asReject: !command.PossibleResend)))
            {
                EmitRejected(in command, reason);
            }

            return;
        }

        // Under the request's id, which differs from the order's when a replace moved the order away from it.
        ref OrderSlot live = ref _orders[slot];
        if (command.PossibleResend && duplicate)
        {
            Emit(EventType.OrderStatus, in command, ref live).ClOrdId = command.ClOrdId;
            return;
        }

        ref EngineEvent rejected = ref Emit(EventType.Rejected, in command, ref live);
        rejected.RejectReason = reason;
        rejected.ClOrdId = command.ClOrdId;
    }

    /// <summary>
    /// Whether (owner, id) was used today or names a live order; when neither, <paramref name="freeBucket"/> is where
    /// today's set records it. Every live order's id is in today's set but those of carried orders, so the live index
    /// is probed only while some remain (<see cref="_carriedLiveOrders"/>).
    /// </summary>
    private bool IsTaken(ulong groupHash, ulong fullHash, int ownerId, in ClOrdId clOrdId, out int freeBucket) =>
        _usedClOrdIds.Contains(groupHash, ownerId, clOrdId, out freeBucket) ||
        (_carriedLiveOrders != 0 && _clOrdIds.TryFind(fullHash, ownerId, clOrdId, out _));

    /// <summary>
    /// A carried order that leaves the book or its id (filled, cancelled, replaced): its id is recorded as used today
    /// from here on, naming the order, so it cannot be reused today and a later cancel naming it is too late, as for an
    /// order entered today. When the day's ids are full it stays unrecorded (stamp 0): no new order or replace can
    /// take it today anyway. Call only while <see cref="_carriedLiveOrders"/> is not 0, after any id the same command
    /// records with a bucket found before (a record in between would take that bucket).
    /// </summary>
    private void SettleCarried(ref OrderSlot order)
    {
        if (_usedClOrdIds.IsToday(order.UsedIdStamp))
        {
            return;
        }

        _carriedLiveOrders--;
        ulong groupHash = ClOrdIdHash.Group(order.OwnerId, order.ClOrdId);
        // No command records a live order's id (it is taken), so the carried id cannot be in today's set yet.
        order.UsedIdStamp =
            !_usedClOrdIds.IsFull && !_usedClOrdIds.Contains(groupHash, order.OwnerId, order.ClOrdId, out int freeBucket)
                ? _usedClOrdIds.Record(freeBucket, groupHash, order.OwnerId, order.ClOrdId, order.OrderId, order.InstrumentId)
                : 0;
    }

    /// <summary>Enters a resting order in the live index under its id (recorded today).</summary>
    private void IndexLive(ulong clOrdIdHash, int slot) => _clOrdIds.Add(clOrdIdHash, slot);

    /// <summary>Takes an order out of the live index (it leaves the book, or takes another id).</summary>
    private void UnindexLive(ref OrderSlot order, int slot) => _clOrdIds.Remove(order.ClOrdIdHash, slot);

    private RejectReason ValidateNewOrder(in Command command, ulong clOrdIdGroupHash, ulong clOrdIdHash, out int freeBucket)
    {
        freeBucket = -1;
        if ((uint)command.InstrumentId >= (uint)_instruments.Length)
        {
            return RejectReason.UnknownInstrument;
        }

        if (!OrderValidation.IsValidSide(command.Side))
        {
            return RejectReason.InvalidSide;
        }

        if (!OrderValidation.IsValidOrderType(command.OrderType))
        {
            return RejectReason.InvalidOrderType;
        }

        if (!OrderValidation.IsValidTimeInForce(command.TimeInForce))
        {
            return RejectReason.InvalidTimeInForce;
        }

        if (!OrderValidation.IsValidSelfTradePrevention(command.SelfTradePrevention))
        {
            return RejectReason.InvalidSelfTradePrevention;
        }

        ref readonly TradingLimits limits = ref _limits[command.InstrumentId];
        RejectReason reason = OrderValidation.CheckQuantity(in limits, command.Quantity);
        if (reason == RejectReason.None && command.OrderType == OrderType.Limit)
        {
            reason = OrderValidation.CheckLimitPrice(in limits, command.Price);
        }

        if (reason != RejectReason.None)
        {
            return reason;
        }

        if (IsTaken(clOrdIdGroupHash, clOrdIdHash, command.OwnerId, command.ClOrdId, out freeBucket))
        {
            return RejectReason.DuplicateClOrdId;
        }

        if (_usedClOrdIds.IsFull)
        {
            return RejectReason.ClOrdIdCapacityExceeded;
        }

        return _orders.HasCapacity ? RejectReason.None : RejectReason.CapacityExceeded;
    }

    private void ProcessCancel(in Command command)
    {
        RejectReason reason = FindOrder(in command, out int slot);
        ulong clOrdIdGroupHash = 0;
        int freeBucket = -1;
        if (reason == RejectReason.None && command.Side != _orders[slot].Side && command.Side != Side.None)
        {
            reason = RejectReason.CancelSideMismatch;
        }

        if (reason == RejectReason.None)
        {
            // The live index is probed too only while carried orders remain (their ids are not in today's set).
            clOrdIdGroupHash = ClOrdIdHash.Group(command.OwnerId, command.ClOrdId);
            if (IsTaken(clOrdIdGroupHash, ClOrdIdHash.Full(clOrdIdGroupHash, command.ClOrdId), command.OwnerId, command.ClOrdId, out freeBucket))
            {
                reason = RejectReason.DuplicateClOrdId;
            }
        }

        if (reason != RejectReason.None)
        {
            EmitCancelRejected(in command, reason, slot);
            return;
        }

        ref OrderSlot order = ref _orders[slot];
        if (!_usedClOrdIds.IsFull)
        {
            // The cancel's id names the order from now on (FIX reports the cancel under it), so it too is too late.
            uint stamp = _usedClOrdIds.Record(freeBucket, clOrdIdGroupHash, command.OwnerId, command.ClOrdId, order.OrderId, order.InstrumentId);
            MarkEnded(stamp, CancelReason.Requested, ref order, byCancelRequest: true);
        }

        if (_carriedLiveOrders != 0)
        {
            SettleCarried(ref order);
        }

        ref BookSides<TLevelIndex> book = ref _books[order.InstrumentId];
        Unrest(slot, ref order.Side == Side.Buy ? ref book.Bids : ref book.Asks);
        UnindexLive(ref order, slot);
        book.Version++;

        order.LeavesQuantity = 0;
        ref EngineEvent cancelled = ref Emit(EventType.Cancelled, in command, ref order);
        cancelled.ClOrdId = command.ClOrdId;
        cancelled.OrigClOrdId = order.ClOrdId;
        cancelled.CancelReason = CancelReason.Requested;
        ReleaseEnded(slot, CancelReason.Requested);
    }

    private void ProcessReplace(in Command command)
    {
        RejectReason reason = FindOrder(in command, out int slot);
        ulong newClOrdIdGroupHash = 0;
        ulong newClOrdIdHash = 0;
        int freeBucket = -1;
        if (reason == RejectReason.None)
        {
            newClOrdIdGroupHash = ClOrdIdHash.Group(command.OwnerId, command.ClOrdId);
            newClOrdIdHash = ClOrdIdHash.Full(newClOrdIdGroupHash, command.ClOrdId);
            reason = ValidateReplace(in command, ref _orders[slot], newClOrdIdGroupHash, newClOrdIdHash, out freeBucket);
        }

        if (reason != RejectReason.None)
        {
            EmitCancelRejected(in command, reason, slot);
            return;
        }

        ref OrderSlot order = ref _orders[slot];
        uint newStamp = _usedClOrdIds.Record(freeBucket, newClOrdIdGroupHash, command.OwnerId, command.ClOrdId, order.OrderId, order.InstrumentId);
        if (_carriedLiveOrders != 0)
        {
            SettleCarried(ref order);
        }

        // The id moved away from stays used, but a request naming it is for an unknown order.
        _usedClOrdIds.MarkSuperseded(order.UsedIdStamp, newStamp);
        order.UsedIdStamp = newStamp;

        ref BookSides<TLevelIndex> book = ref _books[order.InstrumentId];
        bool isBuy = order.Side == Side.Buy;
        ref TLevelIndex ownSide = ref isBuy ? ref book.Bids : ref book.Asks;
        ClOrdId origClOrdId = order.ClOrdId;
        long newQuantity = command.Quantity;
        book.Version++;

        if (newQuantity <= order.CumulativeQuantity)
        {
            // Down to or below what already filled: the rest is cancelled and the order is done.
            Unrest(slot, ref ownSide);
            UnindexLive(ref order, slot);
            order.Price = command.Price;
            order.OrderQuantity = order.CumulativeQuantity;
            order.LeavesQuantity = 0;
            order.ClOrdId = command.ClOrdId;
            order.ClOrdIdHash = newClOrdIdHash;
            EmitReplaced(in command, ref order, origClOrdId).CancelReason = CancelReason.ReplacedToFilled;
            ReleaseEnded(slot, CancelReason.ReplacedToFilled);
            return;
        }

        if (command.Price == order.Price && newQuantity <= order.OrderQuantity)
        {
            // A reduction (or no change) at the same price keeps time priority: adjust in place.
            long reduction = order.OrderQuantity - newQuantity;
            order.OrderQuantity = newQuantity;
            order.LeavesQuantity -= reduction;
            _levels.Levels[order.Level].TotalQuantity -= reduction;
            Rekey(slot, command.ClOrdId, newClOrdIdHash);
            EmitReplaced(in command, ref order, origClOrdId);
            return;
        }

        // A price change or quantity increase loses priority: leave the book, match if now marketable, rest at the back.
        Unrest(slot, ref ownSide);
        UnindexLive(ref order, slot);
        order.Price = command.Price;
        order.OrderQuantity = newQuantity;
        order.LeavesQuantity = newQuantity - order.CumulativeQuantity;
        order.ClOrdId = command.ClOrdId;
        order.ClOrdIdHash = newClOrdIdHash;
        EmitReplaced(in command, ref order, origClOrdId);
        bool stopped = Match(slot, ref isBuy ? ref book.Asks : ref book.Bids, order.Price, in command);
        if (order.LeavesQuantity == 0)
        {
            ReleaseEnded(slot, CancelReason.None);
        }
        else if (stopped)
        {
            CancelSelfTradeTaker(slot, in command);
        }
        else
        {
            // Only Day/GTC orders rest, so a replaced order keeps resting whatever its remainder (and its time in force).
            Rest(slot, ref ownSide);
            IndexLive(newClOrdIdHash, slot);
        }
    }

    private RejectReason ValidateReplace(in Command command, ref OrderSlot order, ulong newClOrdIdGroupHash, ulong newClOrdIdHash, out int freeBucket)
    {
        freeBucket = -1;
        if (command.Side != order.Side)
        {
            return RejectReason.ReplaceSideMismatch;
        }

        if (command.OrderType != 0 && command.OrderType != order.OrderType)
        {
            return RejectReason.ReplaceOrderTypeMismatch;
        }

        if (command.TimeInForce != 0 && command.TimeInForce != order.TimeInForce)
        {
            return RejectReason.ReplaceTimeInForceMismatch;
        }

        if (!OrderValidation.IsValidSelfTradePrevention(command.SelfTradePrevention))
        {
            return RejectReason.InvalidSelfTradePrevention;
        }

        ref readonly TradingLimits limits = ref _limits[order.InstrumentId];
        RejectReason reason = OrderValidation.CheckQuantity(in limits, command.Quantity);
        if (reason == RejectReason.None)
        {
            // Only limit orders rest, so a replace always carries a limit price.
            reason = OrderValidation.CheckLimitPrice(in limits, command.Price);
        }

        if (reason != RejectReason.None)
        {
            return reason;
        }

        // Keeping the order's own id is a duplicate too: a resent replace must not apply twice.
        if (IsTaken(newClOrdIdGroupHash, newClOrdIdHash, command.OwnerId, command.ClOrdId, out freeBucket))
        {
            return RejectReason.DuplicateClOrdId;
        }

        return _usedClOrdIds.IsFull ? RejectReason.ClOrdIdCapacityExceeded : RejectReason.None;
    }

    /// <summary>Finds the live order a cancel/replace names (same owner and instrument); slot is -1 when not found.</summary>
    private RejectReason FindOrder(in Command command, out int slot)
    {
        slot = -1;
        if ((uint)command.InstrumentId >= (uint)_instruments.Length)
        {
            return RejectReason.UnknownInstrument;
        }

        if (!_clOrdIds.TryFind(ClOrdIdIndex.Hash(command.OwnerId, command.OrigClOrdId), command.OwnerId,
                command.OrigClOrdId, out int found) ||
            _orders[found].InstrumentId != command.InstrumentId)
        {
            return RejectReason.UnknownOrder;
        }

        slot = found;
        return RejectReason.None;
    }

    /// <summary>
    /// A cancel or replace the gateway refused: its CancelRejected event, with the live order's state when the owner has
    /// one under OrigClOrdId (whatever instrument the request named: the reject reports the order it names), or the id and
    /// end of an order of the request's instrument that OrigClOrdId named today and that has ended. Nothing changes, and
    /// the request's ClOrdID is not recorded as used, as for any refused request.
    /// </summary>
    private void ProcessRefusedRequest(in Command command)
    {
        int slot = _clOrdIds.TryFind(ClOrdIdIndex.Hash(command.OwnerId, command.OrigClOrdId), command.OwnerId, command.OrigClOrdId, out int found)
            ? found
            : -1;
        EmitCancelRejected(in command, RefusedRequests.ReasonOf(in command), slot);
    }

    /// <summary>
    /// An order status request: the owner's live order under ClOrdId, if it is on the request's instrument and side,
    /// reported as it stands (the request's OrdStatusReqID echoed in OrigClOrdId); else an order of that instrument and
    /// side that the id named today and that has ended, reported as it ended (final quantities, no leaves, how it
    /// ended; no price or terms, which the engine does not keep); otherwise an unknown order.
    /// </summary>
    private void ProcessStatusRequest(in Command command)
    {
        if (_clOrdIds.TryFind(ClOrdIdIndex.Hash(command.OwnerId, command.ClOrdId), command.OwnerId, command.ClOrdId, out int slot) &&
            _orders[slot].InstrumentId == command.InstrumentId && _orders[slot].Side == command.Side)
        {
            Emit(EventType.OrderStatus, in command, ref _orders[slot]).OrigClOrdId = command.OrigClOrdId;
            return;
        }

        if (!TryReportEnded(in command))
        {
            Refuse(in command, RejectReason.UnknownOrder).Type = EventType.OrderStatus;
        }
    }

    /// <summary>
    /// Emits the final status of the order of the command's instrument and side that its ClOrdId named today and that
    /// has ended (an OrderStatus event echoing the command's ids, with the order's id, final quantities and how it
    /// ended, no leaves); false, emitting nothing, when there is none. Off the accepted path: one probe of today's ids.
    /// </summary>
    /// <param name="ordersOnly">Not when the id was a cancel request's (which names the order it ended).</param>
    /// <param name="asReject">
    /// Emit the status as the <see cref="RejectReason.DuplicateClOrdId"/> reject of a new order that reused the id, as
    /// a duplicate of a live order's id is answered (its ExecType says rejected, its quantities and OrdStatus describe
    /// the existing order).
    /// </param>
    private bool TryReportEnded(in Command command, bool ordersOnly = false, bool asReject = false)
    {
        if (!TryGetUsed(command.OwnerId, command.ClOrdId, out UsedIdOrder ended) ||
            !HasEnded(in ended, command.InstrumentId) || (ordersOnly && ended.IsCancelRequest) || ended.Side != command.Side)
        {
            return false;
        }

        ref EngineEvent status = ref Refuse(in command, asReject ? RejectReason.DuplicateClOrdId : RejectReason.None);
        status.Type = asReject ? EventType.Rejected : EventType.OrderStatus;
        status.OrderId = ended.OrderId;
        status.OrderType = OrderType.None;
        status.TimeInForce = default;
        status.Price = 0;
        status.OrderQuantity = ended.OrderQuantity;
        status.CumulativeQuantity = ended.CumulativeQuantity;
        status.CumulativeNotional = ended.CumulativeNotional;
        status.CancelReason = ended.EndReason;
        return true;
    }

    /// <summary>
    /// The slot of the live order a replace moved away from <paramref name="clOrdId"/> today: a request naming that id
    /// is about that order (a new order reusing it, a replace resent after it was carried out). Off the accepted path.
    /// </summary>
    private bool TryFindReplacedLive(int ownerId, in ClOrdId clOrdId, out int slot)
    {
        slot = -1;
        return TryGetUsed(ownerId, clOrdId, out UsedIdOrder named) && named.Superseded && _orders.TryGetSlot(named.OrderId, out slot);
    }

    /// <summary>
    /// Whether <paramref name="clOrdId"/> is the id of the live order in <paramref name="slot"/>, or was until a replace
    /// moved the order on from it today. Off the accepted path.
    /// </summary>
    private bool IsOrWasIdOf(int slot, int ownerId, in ClOrdId clOrdId)
    {
        ref OrderSlot order = ref _orders[slot];
        return order.ClOrdId == clOrdId ||
            (TryGetUsed(ownerId, clOrdId, out UsedIdOrder named) && named.Superseded && named.OrderId == order.OrderId);
    }

    /// <summary>
    /// The order a replace from OrigClOrdId to ClOrdId made today, when it has ended since, under that id or one a later
    /// replace moved it to, on the request's instrument: the request repeats a replace that was carried out.
    /// <paramref name="ended"/> is the record of the id the order ended under. Off the accepted path.
    /// </summary>
    private bool TryFindEndedReplaceResult(in Command command, out UsedIdOrder ended)
    {
        if (TryGetUsed(command.OwnerId, command.OrigClOrdId, out UsedIdOrder original) && original.Superseded &&
            _usedClOrdIds.TryGetLastOrder(ClOrdIdHash.Group(command.OwnerId, command.ClOrdId), command.OwnerId, command.ClOrdId, out ended) &&
            ended.OrderId == original.OrderId && HasEnded(in ended, command.InstrumentId))
        {
            return true;
        }

        ended = default;
        return false;
    }

    /// <summary>
    /// The order of today that OrigClOrdId named and that has ended, on the request's instrument. Off the accepted path:
    /// only a request that found no live order probes today's ids again.
    /// </summary>
    private bool TryFindEnded(in Command command, out UsedIdOrder ended)
    {
        if (TryGetUsed(command.OwnerId, command.OrigClOrdId, out ended) && HasEnded(in ended, command.InstrumentId))
        {
            return true;
        }

        ended = default;
        return false;
    }

    /// <summary>What today's ids record under <paramref name="clOrdId"/> of <paramref name="ownerId"/>, if anything.</summary>
    private bool TryGetUsed(int ownerId, in ClOrdId clOrdId, out UsedIdOrder order) =>
        _usedClOrdIds.TryGetOrder(ClOrdIdHash.Group(ownerId, clOrdId), ownerId, clOrdId, out order);

    /// <summary>
    /// Whether <paramref name="named"/> is an order on <paramref name="instrumentId"/> that ended under that id (not an
    /// id a replace moved away from, and no longer live).
    /// </summary>
    private bool HasEnded(in UsedIdOrder named, int instrumentId) =>
        !named.Superseded && named.InstrumentId == instrumentId && !_orders.TryGetSlot(named.OrderId, out _);

    /// <summary>
    /// Frees the slot of an order that has ended, recording under its id how (<paramref name="endReason"/>: why it was
    /// cancelled, None when it filled) and its final quantities.
    /// </summary>
    private void ReleaseEnded(int slot, CancelReason endReason)
    {
        ref OrderSlot order = ref _orders[slot];
        MarkEnded(order.UsedIdStamp, endReason, ref order);
        _orders.Release(slot);
    }

    /// <summary>Records under the id of <paramref name="stamp"/> that <paramref name="order"/> has ended, as it stands now.</summary>
    private void MarkEnded(uint stamp, CancelReason endReason, ref OrderSlot order, bool byCancelRequest = false) =>
        _usedClOrdIds.MarkEnded(
            stamp, endReason, order.Side, order.OrderQuantity, order.CumulativeQuantity, order.CumulativeNotional, byCancelRequest);

    /// <summary>Moves a resting order to the replace request's client id (always a different id: the same one is a duplicate).</summary>
    private void Rekey(int slot, in ClOrdId newClOrdId, ulong newClOrdIdHash)
    {
        ref OrderSlot order = ref _orders[slot];
        UnindexLive(ref order, slot);
        order.ClOrdId = newClOrdId;
        order.ClOrdIdHash = newClOrdIdHash;
        IndexLive(newClOrdIdHash, slot);
    }
}
