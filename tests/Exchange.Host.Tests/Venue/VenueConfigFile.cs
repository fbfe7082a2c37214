using System.Text.Json;

namespace Exchange.Host.Tests.Venue;

/// <summary>Writes a venue settings file for tests: two sessions, two instruments, small rings.</summary>
internal static class VenueConfigFile
{
    /// <param name="directory">Holds the file, the journal and the session stores.</param>
    /// <param name="port">Listen port (0: the OS chooses).</param>
    /// <param name="storePath">Session store folder; empty keeps sessions in memory.</param>
    /// <param name="journalFsync">Journal fsync policy.</param>
    /// <param name="pipelineMode">Threaded (Blocking waits) or Inline (a Sleeping poller: cheap on shared test cores).</param>
    /// <param name="ringSize">Slots in each ring.</param>
    /// <param name="symbols">The instruments, in this order (default AAPL, MSFT).</param>
    /// <returns>The settings file's path.</returns>
    public static string Write(
        string directory, int port, string storePath, string journalFsync = "EveryBatch", string pipelineMode = "Threaded", int ringSize = 1024, string[]? symbols = null)
    {
        var settings = new
        {
            Venue = new
            {
                Listen = new { Address = "127.0.0.1", Port = port, MaxSendBacklogBytes = 4 * 1024 * 1024 },
                Strategies = new { OrderList = "IntrusiveList", LevelIndex = "SortedArray", MarketData = "SeqLock", PluginDirectory = "plugins" },
                Pipeline = new
                {
                    Mode = pipelineMode,
                    InboundRingSize = ringSize,
                    OutboundRingSize = ringSize,
                    MatcherWait = pipelineMode == "Inline" ? "Sleeping" : "Blocking",
                    JournalWait = "Blocking",
                    SenderWait = "Blocking",
                    MatcherCpu = -1,
                    InitialOrderCapacity = 1024,
                    MaxClOrdIdsPerDay = 1 << 16, // as VenueTestOptions: a journal written by either opens under the other
                },
                Journal = new { Path = Path.Combine(directory, "journal.bin"), Fsync = journalFsync, FsyncIntervalMilliseconds = 10 },
                MarketData = new { PublishIntervalMicroseconds = 1000 },
                Sessions = new[]
                {
                    new { SenderCompId = "EXCH", TargetCompId = "CLIENT1", HeartBtInt = 30, StorePath = storePath, StoreFsync = "Never", MemoryStoreMegabytes = 1 },
                    new { SenderCompId = "EXCH", TargetCompId = "CLIENT2", HeartBtInt = 30, StorePath = storePath, StoreFsync = "Never", MemoryStoreMegabytes = 1 },
                },
                Instruments = (symbols ?? ["AAPL", "MSFT"])
                    .Select(symbol => new { Symbol = symbol, PriceDecimals = 4, TickSize = "0.01", LotSize = 1, MinPrice = "0.01", MaxPrice = "2000" })
                    .ToArray(),
            },
        };
        string path = Path.Combine(directory, "venue.json");
        File.WriteAllText(path, JsonSerializer.Serialize(settings));
        return path;
    }
}
