namespace Exchange.Host.Pipeline;

/// <summary>
/// How a polling loop spends a pass that found no work, by <see cref="WaitStrategyKind"/>: BusySpin keeps polling;
/// Yielding polls a while, then yields the core on every idle pass; Sleeping goes on to sleep 1 ms per idle pass.
/// Any pass with work resets the count. Blocking has no meaning for a loop that polls (nothing signals it).
/// </summary>
internal struct IdleStrategy
{
    private const int SpinPasses = 100;
    private const int YieldPasses = 1000;

    private readonly WaitStrategyKind _kind;
    private int _idlePasses;

    public IdleStrategy(WaitStrategyKind kind)
    {
        if (kind == WaitStrategyKind.Blocking)
        {
            throw new ArgumentOutOfRangeException(nameof(kind), kind, "A polling loop cannot block; use BusySpin, Yielding or Sleeping.");
        }

        _kind = kind;
        _idlePasses = 0;
    }

    /// <summary>Call once per pass with whether the pass did any work.</summary>
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
        else
        {
            Thread.Sleep(1);
        }
    }
}
