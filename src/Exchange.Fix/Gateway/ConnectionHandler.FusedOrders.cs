using System.Runtime.CompilerServices;
using Exchange.Core.Commands;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Mapping;

namespace Exchange.Fix.Gateway;

// The fused path of a logged-on session's NewOrderSingle: checks, header values and mapping in one pass before the
// session's lock (FusedNewOrderReader), the command waiting in its pending slot for the session to deliver the message.
internal sealed partial class ConnectionHandler
{
    private const int NoFusedCommand = -1;

    /// <summary>The field indexes of the NewOrderSingle layout last seen guided; rebuilt in place for another.</summary>
    private readonly NewOrderLayout _orderLayout = new();

    /// <summary>
    /// The pending slot that already holds the current frame's command, mapped by the fused read
    /// (<see cref="TryDeliverFusedOrder"/>), or <see cref="NoFusedCommand"/>. Only the current frame's delivery may take it, never a message the
    /// session releases from its gap queue.
    /// </summary>
    private int _fusedCommandSlot = NoFusedCommand;

    /// <summary>
    /// Delivers the current frame, a logged-on session's NewOrderSingle parsed along <paramref name="plan"/> with its
    /// checks deferred, through the fused read; false (nothing delivered, nothing decided) when the layout does not
    /// qualify or the read is not sure, and the caller then takes the usual path.
    /// </summary>
    /// <remarks>Inlined into <see cref="OnFrame"/>, and the usual path (<see cref="OnParsed"/>) kept out of it, so the
    /// frame step holds one session message: each frame that holds one zeroes it on entry (~190 bytes), and a method of
    /// its own measured slower for that.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryDeliverFusedOrder(GatewaySession session, LayoutPlan plan)
    {
        NewOrderLayout layout = _orderLayout;
        if (!layout.Describe(plan))
        {
            return false;
        }

        FixMessage parsed = _message;
        int slot = _commandCount;
        ref Command command = ref NextCommandSlot();
        if (!FusedNewOrderReader.TryRead(parsed, layout, _s.Instruments, session.OwnerId, _received.UtcNanos, ref command, out int msgSeqNum, out long sendingTime))
        {
            return false;
        }

        command.SelfTradePrevention = _selfTradePrevention;
        parsed.AcceptGuided(_s.Dictionary);
        _fusedCommandSlot = slot;
        Deliver(InboundMessages.CleanApplicationHeader(parsed.Raw, parsed.ValueAt(layout.MsgTypeIndex), msgSeqNum, sendingTime, parsed.ValueAt(layout.SenderCompIdIndex), parsed.ValueAt(layout.TargetCompIdIndex)));
        _fusedCommandSlot = NoFusedCommand;
        return true;
    }

    /// <summary>The next frame takes the full parse and the usual path (for tests that compare the paths).</summary>
    internal void ForgetLayout() => _message.ForgetLayout();

    /// <summary>How many of this connection's orders the session took with the command the fused read mapped.</summary>
    internal long FusedOrders { get; private set; }

    /// <summary>Takes the current frame's fused command, if it has one, as the session delivers the frame.</summary>
    private bool TakeFusedCommand(bool released)
    {
        if (released || _fusedCommandSlot != _commandCount)
        {
            return false;
        }

        _fusedCommandSlot = NoFusedCommand;
        _commandCount++;
        FusedOrders++;
        return true;
    }
}
