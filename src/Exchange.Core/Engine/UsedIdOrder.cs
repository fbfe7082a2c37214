using Exchange.Core.Events;

namespace Exchange.Core.Engine;

/// <summary>
/// The order a used client id named: its id and instrument, and what the id alone can tell of its end. Whether the order
/// still lives is the order store's to say (its id stops resolving when it ends); an order that ended without being
/// marked here filled.
/// </summary>
internal struct UsedIdOrder
{
    public long OrderId;
    public int InstrumentId;

    /// <summary>Why the order was cancelled, once it was (expired, by request, as a remainder...); None otherwise.</summary>
    public CancelReason EndReason;

    /// <summary>A replace moved the order to another id: this one names no order any more.</summary>
    public bool Superseded;
}
