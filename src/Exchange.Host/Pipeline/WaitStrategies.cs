using System.Diagnostics.CodeAnalysis;

namespace Exchange.Host.Pipeline;

/// <summary>Creates and parses wait strategies.</summary>
internal static class WaitStrategies
{
    /// <summary>The configuration names, for error messages.</summary>
    public static string AllowedNames => string.Join(", ", Enum.GetNames<WaitStrategyKind>());

    /// <summary>Parses a configuration value (case-insensitive); false for unknown names or numbers.</summary>
    public static bool TryParse(string? value, out WaitStrategyKind kind)
    {
        kind = default;
        return !string.IsNullOrWhiteSpace(value)
            && !char.IsAsciiDigit(value.Trim()[0])
            && !value.Trim().StartsWith('-')
            && Enum.TryParse(value.Trim(), ignoreCase: true, out kind)
            && Enum.IsDefined(kind);
    }

    /// <summary>Parses a configuration value; the exception names the key and the allowed values.</summary>
    public static WaitStrategyKind Parse(string? value, string configurationKey)
    {
        if (TryParse(value, out WaitStrategyKind kind))
        {
            return kind;
        }

        throw new ArgumentException(
            $"Invalid wait strategy '{value}' for '{configurationKey}'. Allowed values: {AllowedNames}.", nameof(value));
    }

    /// <summary>A strategy instance for one processor of the ring behind <paramref name="sequencer"/>.</summary>
    public static IWaitStrategy Create(WaitStrategyKind kind, Sequencer sequencer)
    {
        switch (kind)
        {
            case WaitStrategyKind.BusySpin:
                return new BusySpinWaitStrategy();
            case WaitStrategyKind.Yielding:
                return new YieldingWaitStrategy();
            case WaitStrategyKind.Sleeping:
                return new SleepingWaitStrategy();
            case WaitStrategyKind.Blocking:
                sequencer.Signal.Enable();
                return new BlockingWaitStrategy(sequencer.Signal);
            default:
                ThrowUnknown(kind);
                return null;
        }
    }

    [DoesNotReturn]
    private static void ThrowUnknown(WaitStrategyKind kind) =>
        throw new ArgumentOutOfRangeException(nameof(kind), kind, $"Allowed values: {AllowedNames}.");
}

/// <summary>Spins with a CPU pause hint until data arrives.</summary>
internal sealed class BusySpinWaitStrategy : IWaitStrategy
{
    public long WaitFor(long next, SequenceBarrier barrier)
    {
        while (true)
        {
            long available = barrier.HighestAvailable(next);
            if (available >= next || barrier.IsStopRequested(next))
            {
                return available;
            }

            Thread.SpinWait(1);
        }
    }
}

/// <summary>Spins a little, then yields the core on every retry.</summary>
internal sealed class YieldingWaitStrategy : IWaitStrategy
{
    private const int SpinTries = 100;

    public long WaitFor(long next, SequenceBarrier barrier)
    {
        int tries = 0;
        while (true)
        {
            long available = barrier.HighestAvailable(next);
            if (available >= next || barrier.IsStopRequested(next))
            {
                return available;
            }

            if (tries < SpinTries)
            {
                tries++;
                Thread.SpinWait(1);
            }
            else
            {
                Thread.Yield();
            }
        }
    }
}

/// <summary>Spins, then yields, then Sleep(0), then 1 ms sleeps: an idle processor costs next to nothing.</summary>
internal sealed class SleepingWaitStrategy : IWaitStrategy
{
    private const int SpinTries = 100;
    private const int YieldTries = 200;
    private const int SleepZeroTries = 300;

    public long WaitFor(long next, SequenceBarrier barrier)
    {
        int tries = 0;
        while (true)
        {
            long available = barrier.HighestAvailable(next);
            if (available >= next || barrier.IsStopRequested(next))
            {
                return available;
            }

            tries++;
            if (tries <= SpinTries)
            {
                Thread.SpinWait(1);
            }
            else if (tries <= YieldTries)
            {
                Thread.Yield();
            }
            else if (tries <= SleepZeroTries)
            {
                Thread.Sleep(0);
            }
            else
            {
                Thread.Sleep(1);
            }
        }
    }
}

/// <summary>Sleeps on the ring's <see cref="PublicationSignal"/>, woken by publishers, advancing dependencies, halts.</summary>
internal sealed class BlockingWaitStrategy : IWaitStrategy
{
    private readonly PublicationSignal _signal;

    public BlockingWaitStrategy(PublicationSignal signal) => _signal = signal;

    public long WaitFor(long next, SequenceBarrier barrier) => _signal.WaitFor(next, barrier);
}
