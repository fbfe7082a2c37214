using Exchange.Core.Commands;
using Exchange.Core.Engine;

namespace Exchange.Benchmarks.Engine;

/// <summary>
/// One prepared run of the <see cref="NasdaqShapedWorkload"/>: an engine loaded with the base book and warmed by one pass
/// of the replayable block. Shared by every whole-engine benchmark (throughput per combination, GC modes, plugin vs
/// direct) and by the NativeAOT runner, so they all measure exactly the same work.
/// </summary>
/// <remarks>Setup allocates freely; <see cref="Replay"/> is the measured part and must allocate nothing.</remarks>
internal sealed class EngineWorkloadRun
{
    private readonly Command[] _block;

    public EngineWorkloadRun(NasdaqShapedWorkload workload, Func<EngineOptions, IMatchingEngine> createEngine)
    {
        Engine = createEngine(OptionsFor(workload));
        foreach (Command command in workload.BaseBook)
        {
            Engine.Process(in command);
        }

        _block = workload.Block;
        Replay(); // the first pass grows any pool that still needs it, outside the measurement
    }

    public IMatchingEngine Engine { get; }

    /// <summary>Commands per <see cref="Replay"/>.</summary>
    public int BlockLength => _block.Length;

    /// <summary>
    /// Pools sized so the measured block never grows them (the base book plus everything the block adds). The day's
    /// client ids keep at least the engine's default size, so their probes reach memory as in a venue rather than a
    /// table small enough to stay in cache; the first day holds the base book's ids as well as a block's.
    /// </summary>
    public static EngineOptions OptionsFor(NasdaqShapedWorkload workload) => new()
    {
        InitialOrderCapacity = workload.BaseBook.Length + workload.Block.Length,
        InitialLevelCapacity = workload.Instruments.Count * 128,
        MaxClOrdIdsPerDay = Math.Max(EngineOptions.DefaultMaxClOrdIdsPerDay, workload.BaseBook.Length + workload.Block.Length),
    };

    /// <summary>Replays the block once; the book ends where it started. Returns the event count (so nothing is elided).</summary>
    public int Replay()
    {
        int events = 0;
        Command[] block = _block;
        IMatchingEngine engine = Engine;
        for (int i = 0; i < block.Length; i++)
        {
            events += engine.Process(in block[i]).Length;
        }

        return events;
    }
}
