namespace Exchange.Host.Pipeline;

/// <summary>Who may claim slots in a ring.</summary>
internal enum ProducerMode
{
    /// <summary>Exactly one thread claims and publishes: no atomic instruction on the claim path.</summary>
    Single,

    /// <summary>Any number of threads claim concurrently (Interlocked on the cursor, per-slot publication flags).</summary>
    Multi,
}
