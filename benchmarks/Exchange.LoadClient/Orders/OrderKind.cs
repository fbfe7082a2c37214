namespace Exchange.LoadClient.Orders;

/// <summary>The first ClOrdID character: which flow an order belongs to, so replies are matched to the right array.</summary>
internal enum OrderKind : byte
{
    /// <summary>Warm-up, background and measured orders, numbered 0..warmup+orders-1.</summary>
    Flow = (byte)'O',

    /// <summary>Resting orders placed before measuring, numbered 0..prepopulate-1.</summary>
    Prepopulate = (byte)'P',
}
