using System.Diagnostics;
using Exchange.Core.Domain;
using Exchange.LoadClient.Measurement;
using Exchange.LoadClient.Options;
using Exchange.LoadClient.Session;

namespace Exchange.LoadClient.Orders;

/// <summary>
/// Sends orders of the <see cref="OrderFlow"/> through pre-encoded templates (one per side and time in force):
/// stamp under the session's send lock, then one socket send per order, or per batch in pipelined mode.
/// Allocation-free per order.
/// </summary>
/// <remarks>
/// The send time recorded for an order is the Stopwatch reading before it is stamped, so the client's own encode cost
/// is inside the round trip. Only one thread sends orders (the runner's); the reader may send admin messages
/// concurrently, which the lock orders.
/// </remarks>
internal sealed class OrderSender
{
    private readonly FixClientSession _session;
    private readonly OrderTracker _tracker;
    private readonly OrderFlow _flow;
    private readonly NewOrderTemplate[] _templates;
    private readonly byte[] _batch;

    public OrderSender(FixClientSession session, OrderTracker tracker, OrderFlow flow, ClOrdIdCodec clOrdIds, LoadClientOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        _session = session ?? throw new ArgumentNullException(nameof(session));
        _tracker = tracker ?? throw new ArgumentNullException(nameof(tracker));
        _flow = flow ?? throw new ArgumentNullException(nameof(flow));
        _templates = new NewOrderTemplate[4];
        foreach (Side side in (ReadOnlySpan<Side>)[Side.Buy, Side.Sell])
        {
            foreach (TimeInForce tif in (ReadOnlySpan<TimeInForce>)[TimeInForce.Day, TimeInForce.ImmediateOrCancel])
            {
                _templates[TemplateIndex(side, tif)] = new NewOrderTemplate(
                    options.SenderCompId, options.TargetCompId, clOrdIds, options.Symbol, side, tif, options.Quantity, options.PriceDecimals);
            }
        }

        _batch = new byte[options.Batch * _templates.Max(t => t.Length)];
    }

    public long OrdersSent { get; private set; }

    /// <summary>Sends one order; <paramref name="intendedTicks"/> 0 means "now" (unscheduled modes).</summary>
    public void SendOne(OrderKind kind, long number, long intendedTicks)
    {
        long now = Stopwatch.GetTimestamp();
        OrderSpec spec = _flow.For(kind, number);
        NewOrderTemplate template = _templates[TemplateIndex(spec.Side, spec.TimeInForce)];
        if (kind == OrderKind.Flow)
        {
            _tracker.OnSent(number, intendedTicks == 0 ? now : intendedTicks, now);
        }

        lock (_session.SendLock)
        {
            template.Stamp(_session.TakeSeqNum(), FixClientSession.UnixNanosNow(), kind, number, spec.Price);
            _session.SendAll(template.Message);
        }

        OrdersSent++;
    }

    /// <summary>
    /// Sends orders first..first+count-1 in one socket send (count at most the configured batch). With a
    /// <paramref name="schedule"/>, each flow order keeps its own intended time (a fixed-rate sender catching up after
    /// falling behind); without, the orders are intended now.
    /// </summary>
    public void SendBatch(OrderKind kind, long first, int count, RateSchedule? schedule = null)
    {
        long now = Stopwatch.GetTimestamp();
        long unixNanos = FixClientSession.UnixNanosNow();
        lock (_session.SendLock)
        {
            int length = 0;
            for (long number = first; number < first + count; number++)
            {
                OrderSpec spec = _flow.For(kind, number);
                NewOrderTemplate template = _templates[TemplateIndex(spec.Side, spec.TimeInForce)];
                if (kind == OrderKind.Flow)
                {
                    _tracker.OnSent(number, schedule is { } plan ? plan.IntendedTicks(number) : now, now);
                }

                template.Stamp(_session.TakeSeqNum(), unixNanos, kind, number, spec.Price);
                template.Message.CopyTo(_batch.AsSpan(length));
                length += template.Length;
            }

            _session.SendAll(_batch.AsSpan(0, length));
        }

        OrdersSent += count;
    }

    private static int TemplateIndex(Side side, TimeInForce tif) =>
        (side == Side.Sell ? 2 : 0) + (tif == TimeInForce.ImmediateOrCancel ? 1 : 0);
}
