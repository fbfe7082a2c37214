using BenchmarkDotNet.Attributes;
using Exchange.Core.Strategies;
using Exchange.Strategies.OrderLists;

namespace Exchange.Benchmarks.Strategies;

/// <summary>
/// Strategy family 1 on the same work: one price level's queue receiving <see cref="Orders"/> orders, then losing them
/// to fills from the head, to cancels at random positions, or to a mix with a priority walk in between.
/// </summary>
/// <remarks>
/// The list is a struct field reached through the class's generic parameter, so every call is direct, as in the engine.
/// Global setup runs each workload once so per-slot bookkeeping (the LinkedList's nodes, the ring's capacity) exists;
/// what is measured is the steady state. Each invocation handles every order once; divide by <see cref="Orders"/> for a
/// per-order cost.
/// </remarks>
[MemoryDiagnoser]
[GenericTypeArguments(typeof(LinkedListOrderList))]
[GenericTypeArguments(typeof(RingDequeOrderList))]
[GenericTypeArguments(typeof(IntrusiveListOrderList))]
public class OrderListBenchmarks<TList>
    where TList : struct, IOrderList
{
    private TList _list;
    private OrderListLinks[] _links = [];
    private int[] _cancelOrder = [];

    [Params(16, 256)]
    public int Orders { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _links = new OrderListLinks[Orders];
        _cancelOrder = Enumerable.Range(0, Orders).ToArray();
        new Random(42).Shuffle(_cancelOrder);
        _list = default;
        _list.Clear();
        AddThenFillFromHead();
        AddThenCancelAtRandom();
        AddCancelHalfWalkThenFill();
    }

    /// <summary>Queue every order, then fill them all in time priority.</summary>
    [Benchmark(Baseline = true)]
    public int AddThenFillFromHead()
    {
        AddAll();
        int filled = 0;
        for (int slot = _list.First(_links); slot != -1; slot = _list.First(_links))
        {
            _list.Remove(_links, slot);
            filled++;
        }

        return filled;
    }

    /// <summary>Queue every order, then cancel them all in a fixed random order (removal from the middle).</summary>
    [Benchmark]
    public int AddThenCancelAtRandom()
    {
        AddAll();
        foreach (int slot in _cancelOrder)
        {
            _list.Remove(_links, slot);
        }

        return _list.Count;
    }

    /// <summary>Queue every order, cancel half at random, walk the rest in priority order, then fill them.</summary>
    [Benchmark]
    public long AddCancelHalfWalkThenFill()
    {
        AddAll();
        int[] cancels = _cancelOrder;
        for (int i = 0; i < cancels.Length / 2; i++)
        {
            _list.Remove(_links, cancels[i]);
        }

        long walked = 0;
        for (int slot = _list.First(_links); slot != -1; slot = _list.Next(_links, slot))
        {
            walked += slot;
        }

        for (int slot = _list.First(_links); slot != -1; slot = _list.First(_links))
        {
            _list.Remove(_links, slot);
        }

        return walked;
    }

    private void AddAll()
    {
        for (int slot = 0; slot < _links.Length; slot++)
        {
            _list.AddLast(_links, slot);
        }
    }
}
