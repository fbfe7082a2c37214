namespace Exchange.Core.Events;

/// <summary>Why the engine refused a command. Codes, not exceptions: a rejected command never changes state.</summary>
public enum RejectReason : byte
{
    None = 0,
    UnknownInstrument = 1,
    InvalidSide = 2,
    InvalidOrderType = 3,
    InvalidTimeInForce = 4,
    QuantityNotPositive = 5,
    QuantityOffLot = 6,
    PriceNotPositive = 7,
    PriceOffTick = 8,
    PriceOutOfBand = 9,
    /// <summary>
    /// The ClOrdID was already used by this owner today (see <see cref="Engine.EngineOptions.MaxClOrdIdsPerDay"/>), or
    /// names a resting order. When it names a resting order, a new order's reject carries that order's state.
    /// </summary>
    DuplicateClOrdId = 10,
    UnknownOrder = 11,
    /// <summary>No longer emitted: an unfillable fill-or-kill order is killed (<see cref="CancelReason.FillOrKillUnfillable"/>).</summary>
    FillOrKillNotFillable = 12,
    ReplaceSideMismatch = 13,
    CapacityExceeded = 14,
    UnknownCommand = 15,

    /// <summary>Above the instrument's maximum order quantity (see <see cref="Domain.Instrument.MaxOrderQuantity"/>).</summary>
    QuantityTooLarge = 16,

    /// <summary>The day has used <see cref="Engine.EngineOptions.MaxClOrdIdsPerDay"/> client order ids; no new one can be recorded.</summary>
    ClOrdIdCapacityExceeded = 17,

    /// <summary>A replace named an order type other than the order's own (resting orders are limit orders).</summary>
    ReplaceOrderTypeMismatch = 18,

    /// <summary>A replace named a time in force other than the order's own.</summary>
    ReplaceTimeInForceMismatch = 19,

    /// <summary>
    /// The order carries an instruction the venue does not carry out (ExecInst, MinQty, MaxFloor, a peg...): refused
    /// rather than executed without it. Set by the gateway.
    /// </summary>
    UnsupportedOrderInstruction = 20,

    /// <summary>A limit order or replace without a Price (44). Set by the gateway.</summary>
    PriceMissing = 21,

    /// <summary>
    /// A cancel or replace named, by an id of today, an order that is no longer live (filled or cancelled). Its
    /// CancelRejected event carries that order's id and, in <see cref="EngineEvent.CancelReason"/>, how it ended (None:
    /// filled), with no leaves.
    /// </summary>
    TooLateToCancel = 22,

    /// <summary>A mass cancel of a kind the venue does not carry out (only by symbol, or everything). Set by the gateway.</summary>
    UnsupportedMassCancel = 23,

    /// <summary>A new order or replace carried a <see cref="Domain.SelfTradePrevention"/> value that is not one of its four.</summary>
    InvalidSelfTradePrevention = 24,

    /// <summary>A cancel named a live order of the other side (see <see cref="ReplaceSideMismatch"/> for a replace).</summary>
    CancelSideMismatch = 25,
}
