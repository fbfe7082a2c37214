using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Tests.Lobster;

namespace Exchange.Benchmarks.Lobster;

/// <summary>
/// The LOBSTER sample archives (AAPL, AMZN, GOOG, one book each) mapped to engine commands by the tests'
/// <see cref="LobsterCommandMapper"/> and merged into one stream in time order, as a venue would see the three symbols.
/// Built once per benchmark process; not a hot path.
/// </summary>
internal sealed class LobsterReplayData
{
    private LobsterReplayData(Instrument[] instruments, Command[] commands, int peakRestingOrders)
    {
        Instruments = instruments;
        Commands = commands;
        PeakRestingOrders = peakRestingOrders;
    }

    public IReadOnlyList<Instrument> Instruments { get; }

    /// <summary>Every mapped command of every file, ordered by LOBSTER time (ties keep file order), sequenced 1, 2, ...</summary>
    public Command[] Commands { get; }

    /// <summary>Most orders resting at once during the replay, to size the engine's pools so the replay never grows them.</summary>
    public int PeakRestingOrders { get; }

    /// <exception cref="InvalidOperationException">The LOBSTER data is not found above the benchmark binaries.</exception>
    public static LobsterReplayData Load()
    {
        string directory = LobsterReader.FindDataDirectory()
            ?? throw new InvalidOperationException("LOBSTER data (shared/data/lobster/*.zip) not found above " + AppContext.BaseDirectory);
        IReadOnlyList<LobsterFile> files = LobsterReader.ReadAll(directory);
        var instruments = new Instrument[files.Count];
        var mapped = new List<(long Time, int File, int Index, LobsterCommand Command)>();
        for (int i = 0; i < files.Count; i++)
        {
            instruments[i] = LobsterCommandMapper.CreateInstrument(i, files[i].Symbol, files[i].Messages);
            int index = 0;
            foreach (LobsterCommand command in new LobsterCommandMapper(i).Map(files[i]))
            {
                mapped.Add((command.Command.Timestamp, i, index++, command));
            }
        }

        mapped.Sort((a, b) => (a.Time, a.File, a.Index).CompareTo((b.Time, b.File, b.Index)));
        var commands = new Command[mapped.Count];
        int live = 0;
        int peak = 0;
        for (int i = 0; i < commands.Length; i++)
        {
            commands[i] = mapped[i].Command.Command;
            commands[i].Sequence = i + 1;
            live += commands[i].Type switch { CommandType.NewOrder => 1, CommandType.Cancel => -1, _ => 0 };
            peak = Math.Max(peak, live);
        }

        return new LobsterReplayData(instruments, commands, peak);
    }

    /// <summary>
    /// Pools sized for the replay's peak, so a fresh engine replays without growing them, and a day of client ids that
    /// holds one per command (the replay is one trading day).
    /// </summary>
    public EngineOptions Options => new()
    {
        InitialOrderCapacity = PeakRestingOrders + 1024,
        InitialLevelCapacity = PeakRestingOrders + 1024,
        MaxClOrdIdsPerDay = Math.Max(EngineOptions.DefaultMaxClOrdIdsPerDay, Commands.Length),
    };
}
