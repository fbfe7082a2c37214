namespace Exchange.Host.Pipeline;

/// <summary>
/// The back-off ladder behind every non-blocking <see cref="WaitStrategyKind"/>, one step per call: BusySpin only
/// spins; Yielding spins <see cref="SpinPasses"/> times, then yields the core on every step; Sleeping spins, yields,
/// then Sleep(0), then sleeps 1 ms per step. Used by the ring processors' wait strategies, the Inline polling loop and
/// the durability gate, so a kind means the same wherever it is configured.
/// </summary>
internal struct IdleStrategy
{
    /// <summary>Steps spent spinning before Yielding and Sleeping start giving the core away.</summary>
    public const int SpinPasses = 100;

    private const int YieldPasses = 200;
    private const int SleepZeroPasses = 300;

    private readonly WaitStrategyKind _kind;
    private int _idlePasses;

    public IdleStrategy(WaitStrategyKind kind)
    {
        if (kind == WaitStrategyKind.Blocking)
        {
            throw new ArgumentOutOfRangeException(nameof(kind), kind, "Blocking is not a back-off; use BusySpin, Yielding or Sleeping.");
        }

        _kind = kind;
        _idlePasses = 0;
    }

    /// <summary>One step: call once per pass with whether the pass did any work (work resets the ladder).</summary>
    public void Idle(bool didWork)
    {
        if (didWork)
        {
            _idlePasses = 0;
            return;
        }

        _idlePasses++;
        if (_kind == WaitStrategyKind.BusySpin || _idlePasses <= SpinPasses)
        {
            Thread.SpinWait(1);
        }
        else if (_kind == WaitStrategyKind.Yielding || _idlePasses <= YieldPasses)
        {
            Thread.Yield();
        }
        else if (_idlePasses <= SleepZeroPasses)
        {
            Thread.Sleep(0);
        }
        else
        {
            Thread.Sleep(1);
        }
    }
}
