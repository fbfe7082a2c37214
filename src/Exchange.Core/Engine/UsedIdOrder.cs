using Exchange.Core.Domain;
using Exchange.Core.Events;

namespace Exchange.Core.Engine;

/// <summary>
/// The order a used client id named: its id and instrument, and, once it has ended, how it ended and its final
/// quantities, so a status request or a too-late cancel can report it. Whether the order still lives is the order
/// store's to say (its id stops resolving when it ends); the end fields are meaningless until then.
/// </summary>
internal struct UsedIdOrder
{
    public long OrderId;
    public int InstrumentId;

    /// <summary>Why the order was cancelled, once it was (expired, by request, as a remainder...); None otherwise.</summary>
    public CancelReason EndReason;

    /// <summary>
    /// The stamp of the id a replace moved the order on to (<see cref="UsedClOrdIds.MarkSuperseded"/>), or of a later
    /// id of the same order; 0 while this id still names the order.
    /// </summary>
    public uint SupersededBy;

    /// <summary>Set with the final quantities when the order ends (<see cref="UsedClOrdIds.MarkEnded"/>); None before.</summary>
    public Side Side;

    /// <summary>The id was a cancel request's (it names the order the cancel ended), not an order's own.</summary>
    public bool IsCancelRequest;

    public long OrderQuantity;
    public long CumulativeQuantity;
    public long CumulativeNotional;

    /// <summary>A replace moved the order to another id: this one names no order any more.</summary>
    public readonly bool Superseded => SupersededBy != 0;
}
