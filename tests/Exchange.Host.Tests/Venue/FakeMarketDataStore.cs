using Exchange.Core.MarketData;
using Exchange.Core.Strategies;

namespace Exchange.Host.Tests.Venue;

/// <summary>A lock-based store for tests (the real ones are plugins the test project does not reference).</summary>
internal sealed class FakeMarketDataStore : IMarketDataStore
{
    private readonly Lock _lock = new();
    private BookDepth[] _depths = [];
    private bool[] _published = [];

    public void Initialize(int instrumentCount)
    {
        _depths = new BookDepth[instrumentCount];
        _published = new bool[instrumentCount];
    }

    public void Publish(in BookDepth depth)
    {
        lock (_lock)
        {
            _depths[depth.InstrumentId] = depth;
            _published[depth.InstrumentId] = true;
        }
    }

    public bool TryRead(int instrumentId, ref BookDepth destination)
    {
        lock (_lock)
        {
            if (!_published[instrumentId])
            {
                return false;
            }

            destination = _depths[instrumentId];
            return true;
        }
    }
}
