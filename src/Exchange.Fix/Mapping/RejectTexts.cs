using Exchange.Core.Events;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Fixed ASCII texts for Text (58). UTF-8 literals live in the assembly's data: no allocation.</summary>
public static class RejectTexts
{
    public static ReadOnlySpan<byte> For(RejectReason reason) => reason switch
    {
        RejectReason.UnknownInstrument => "Unknown symbol"u8,
        RejectReason.InvalidSide => "Unsupported side"u8,
        RejectReason.InvalidOrderType => "Unsupported order type"u8,
        RejectReason.InvalidTimeInForce => "Unsupported time in force"u8,
        RejectReason.QuantityNotPositive => "Quantity must be positive"u8,
        RejectReason.QuantityOffLot => "Quantity is not a multiple of the lot size"u8,
        RejectReason.QuantityTooLarge => "Quantity above the instrument's maximum order size"u8,
        RejectReason.PriceNotPositive => "Price must be positive"u8,
        RejectReason.PriceOffTick => "Price is not a multiple of the tick size"u8,
        RejectReason.PriceOutOfBand => "Price outside the instrument's band"u8,
        RejectReason.DuplicateClOrdId => "Duplicate ClOrdID"u8,
        RejectReason.UnknownOrder => "Unknown order"u8,
        RejectReason.TooLateToCancel => "Too late to cancel: the order has already filled, been canceled or expired"u8,
        RejectReason.ReplaceSideMismatch => "Replace cannot change the side"u8,
        RejectReason.CancelSideMismatch => "Side does not match the order's side"u8,
        RejectReason.ReplaceOrderTypeMismatch => "Replace cannot change the order type"u8,
        RejectReason.ReplaceTimeInForceMismatch => "Replace cannot change the time in force"u8,
        RejectReason.CapacityExceeded => "Venue capacity exceeded"u8,
        RejectReason.ClOrdIdCapacityExceeded => "Venue's ClOrdID capacity for the day exhausted"u8,
        RejectReason.UnknownCommand => "Unsupported request"u8,
        RejectReason.UnsupportedOrderInstruction => "Unsupported order instruction: only Side, OrderQty, OrdType 1/2, Price and TimeInForce 0/1/3/4 are carried out"u8,
        RejectReason.PriceMissing => "Price (44) is required for a limit order"u8,
        RejectReason.UnsupportedMassCancel => "Mass cancel is carried out for one symbol (530=1) or all orders (530=7) only"u8,
        RejectReason.InvalidSelfTradePrevention => "Invalid self-trade prevention instruction"u8,
        _ => "Rejected"u8,
    };

    /// <summary>Text (58) of a too-late-to-cancel reject, from how the order ended (<see cref="RejectReason.TooLateToCancel"/>).</summary>
    public static ReadOnlySpan<byte> TooLateToCancel(CancelReason endReason) => endReason switch
    {
        CancelReason.None or CancelReason.ReplacedToFilled => "Too late to cancel: the order has filled"u8,
        CancelReason.Expired => "Too late to cancel: the order has expired"u8,
        _ => "Too late to cancel: the order has been canceled"u8,
    };

    public static ReadOnlySpan<byte> For(SessionRejectReason reason) => reason switch
    {
        SessionRejectReason.InvalidTagNumber => "Invalid tag number"u8,
        SessionRejectReason.RequiredTagMissing => "Required tag missing"u8,
        SessionRejectReason.TagNotDefinedForMessageType => "Tag not defined for this message type"u8,
        SessionRejectReason.UndefinedTag => "Undefined tag"u8,
        SessionRejectReason.TagSpecifiedWithoutValue => "Tag specified without a value"u8,
        SessionRejectReason.ValueIsIncorrect => "Value is incorrect (out of range) for this tag"u8,
        SessionRejectReason.IncorrectDataFormat => "Incorrect data format for value"u8,
        SessionRejectReason.CompIdProblem => "CompID problem"u8,
        SessionRejectReason.SendingTimeAccuracyProblem => "SendingTime accuracy problem"u8,
        SessionRejectReason.InvalidMsgType => "Invalid MsgType"u8,
        SessionRejectReason.TagAppearsMoreThanOnce => "Tag appears more than once"u8,
        SessionRejectReason.TagSpecifiedOutOfRequiredOrder => "Tag specified out of required order"u8,
        SessionRejectReason.RepeatingGroupFieldsOutOfOrder => "Repeating group fields out of order"u8,
        SessionRejectReason.IncorrectNumInGroupCount => "Incorrect NumInGroup count for repeating group"u8,
        SessionRejectReason.NonDataValueIncludesFieldDelimiter => "Non-data value includes field delimiter (SOH)"u8,
        _ => "Other"u8,
    };

    public static ReadOnlySpan<byte> For(CancelReason reason) => reason switch
    {
        CancelReason.Requested => "Canceled on request"u8,
        CancelReason.ImmediateOrCancelRemainder => "Unfilled immediate-or-cancel remainder canceled"u8,
        CancelReason.MarketRemainder => "Unfilled market order remainder canceled"u8,
        CancelReason.ReplacedToFilled => "Replaced to a quantity already filled"u8,
        CancelReason.Expired => "Day order expired at the start of a new trading day"u8,
        CancelReason.FillOrKillUnfillable => "Fill-or-kill order could not be filled completely: killed"u8,
        CancelReason.MassCancel => "Canceled by an order mass cancel request"u8,
        CancelReason.SessionDisconnected => "Canceled on disconnect: the session ended"u8,
        CancelReason.SelfTradePrevention => "Canceled by self-trade prevention: it would have traded with an order of the same session"u8,
        _ => "Canceled"u8,
    };
}
