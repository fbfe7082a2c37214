using System.Collections.Concurrent;
using System.Net;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Host.Configuration;
using Exchange.Host.Venue;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Exchange.Host.Tests.Venue;

/// <summary>A temporary working directory for one venue test, deleted on dispose.</summary>
internal sealed class TempVenueDirectory : IDisposable
{
    public TempVenueDirectory()
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "exchange-venue-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    public string JournalPath => System.IO.Path.Combine(Path, "journal.bin");

    public void Dispose()
    {
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
            // Best effort: a leftover temp file must not fail a test.
        }
        catch (UnauthorizedAccessException)
        {
        }
    }
}

/// <summary>Collects log lines so tests can check what the venue reported (e.g. a dropped torn record).</summary>
internal sealed class CapturingLoggerProvider : ILoggerProvider
{
    public ConcurrentQueue<string> Lines { get; } = new();

    public ILogger CreateLogger(string categoryName) => new Logger(this);

    public void Dispose()
    {
    }

    public bool Contains(string text) => Lines.Any(line => line.Contains(text, StringComparison.Ordinal));

    private sealed class Logger(CapturingLoggerProvider owner) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            owner.Lines.Enqueue($"{logLevel}: {formatter(state, exception)}{(exception is null ? "" : " " + exception.Message)}");
    }
}

internal static class VenueTestOptions
{
    /// <summary>The moment test commands are stamped around: 2023-11-14 22:13:20 UTC, nanoseconds since the Unix epoch.</summary>
    public const long TestTime = 1_700_000_000_000_000_000;

    /// <summary>The UTC date of <see cref="TestTime"/>: with trading days starting at 00:00, the test commands' day.</summary>
    public static readonly DateTime TestDay = new(2023, 11, 14, 0, 0, 0, DateTimeKind.Utc);

    /// <summary>Two sessions (owner 0 CLIENT1, owner 1 CLIENT2) with small memory stores, two instruments, port 0, small rings.</summary>
    public static VenueOptions Create(string directory, string fsync = "EveryBatch") => new()
    {
        Listen = new ListenOptions { Address = "127.0.0.1", Port = 0 },
        Pipeline = new PipelineOptions
        {
            InboundRingSize = 1024,
            OutboundRingSize = 1024,
            MatcherWait = "Blocking",
            JournalWait = "Blocking",
            SenderWait = "Blocking",
            MatcherCpu = -1,
            InitialOrderCapacity = 1024,
            MaxClOrdIdsPerDay = 1 << 16,
        },
        Journal = new Exchange.Host.Configuration.JournalOptions { Path = Path.Combine(directory, "journal.bin"), Fsync = fsync },
        MarketData = new MarketDataOptions { PublishIntervalMicroseconds = 1000 },
        Sessions =
        [
            new SessionOptions { SenderCompId = "EXCH", TargetCompId = "CLIENT1", StorePath = "", StoreFsync = "Never", MemoryStoreMegabytes = 1 },
            new SessionOptions { SenderCompId = "EXCH", TargetCompId = "CLIENT2", StorePath = "", StoreFsync = "Never", MemoryStoreMegabytes = 1 },
        ],
        Instruments =
        [
            new InstrumentOptions { Symbol = "AAPL", PriceDecimals = 4, TickSize = "0.01", LotSize = 1, MinPrice = "0.01", MaxPrice = "2000" },
            new InstrumentOptions { Symbol = "MSFT", PriceDecimals = 4, TickSize = "0.01", LotSize = 1, MinPrice = "0.01", MaxPrice = "2000" },
        ],
    };

    /// <summary>A limit order for owner <paramref name="owner"/>, numbered <paramref name="i"/> (ClOrdID "O-i").</summary>
    public static Command NewOrder(int i, int owner = 0, Side side = Side.Buy, long price = 1_000_000, long quantity = 100, int instrument = 0) => new()
    {
        Type = CommandType.NewOrder,
        Side = side,
        OrderType = OrderType.Limit,
        TimeInForce = TimeInForce.Day,
        InstrumentId = instrument,
        OwnerId = owner,
        Price = price,
        Quantity = quantity,
        Timestamp = TestTime + i,
        ClOrdId = ClOrdId.From("O-" + i.ToString(System.Globalization.CultureInfo.InvariantCulture)),
    };
}

internal static class VenueHost
{
    /// <summary>
    /// The venue of <paramref name="config"/>, not started, with its engine built by <paramref name="engine"/> (called
    /// at start, given the host's services) and <paramref name="services"/> applied after the venue's own.
    /// </summary>
    public static IHost BuildWithEngine(
        string config, Func<IServiceProvider, IReadOnlyList<Instrument>, VenueEngine> engine, Action<IServiceCollection>? services = null) =>
        VenueProgram.Build(["--config", config], collection =>
        {
            services?.Invoke(collection);
            collection.AddSingleton(provider => new VenueService(
                provider.GetRequiredService<VenueOptions>(),
                provider.GetRequiredService<IGatewayFactory>(),
                provider.GetRequiredService<VenueEndpoint>(),
                provider.GetRequiredService<ILoggerFactory>(),
                provider.GetRequiredService<IHostApplicationLifetime>(),
                engineFactory: instruments => engine(provider, instruments)));
        });

    /// <summary>
    /// A started venue on an OS-chosen port, its files in <paramref name="directory"/>, with in-memory sessions;
    /// <paramref name="overrides"/> are command-line settings on top ("--Venue:Sessions:1:CancelOnDisconnect=true").
    /// </summary>
    public static async Task<IHost> StartAsync(TempVenueDirectory directory, string pipelineMode, params string[] overrides)
    {
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "", pipelineMode: pipelineMode);
        return await StartAsync(config, overrides);
    }

    /// <summary>Connects CLIENT1 (the buyer) and CLIENT2 (the seller) to a started venue and logs both on.</summary>
    public static async Task<(FixTestClient Buyer, FixTestClient Seller)> LogOnBuyerAndSellerAsync(IHost host)
    {
        IPEndPoint endPoint = await host.Services.GetRequiredService<VenueEndpoint>().Bound.WaitAsync(TimeSpan.FromSeconds(10));
        FixTestClient buyer = await FixTestClient.ConnectAsync(endPoint, "CLIENT1");
        FixTestClient seller = await FixTestClient.ConnectAsync(endPoint, "CLIENT2");
        foreach (FixTestClient client in new[] { buyer, seller })
        {
            await client.LogonAsync();
            await client.ExpectAsync(m => m[35] == "A", "Logon reply");
        }

        return (buyer, seller);
    }

    /// <summary>
    /// Runs <paramref name="scenario"/> against a fresh venue in <paramref name="pipelineMode"/> with CLIENT1 (the buyer)
    /// and CLIENT2 (the seller) logged on, then closes both connections and stops the venue.
    /// </summary>
    public static Task WithBuyerAndSellerAsync(string pipelineMode, Func<FixTestClient, FixTestClient, Task> scenario) =>
        WithBuyerAndSellerAsync(pipelineMode, [], (_, buyer, seller) => scenario(buyer, seller));

    /// <summary>
    /// As <see cref="WithBuyerAndSellerAsync(string, Func{FixTestClient, FixTestClient, Task})"/> on a venue with
    /// command-line <paramref name="overrides"/>; the scenario also gets the host (to connect again, for example).
    /// </summary>
    public static async Task WithBuyerAndSellerAsync(string pipelineMode, string[] overrides, Func<IHost, FixTestClient, FixTestClient, Task> scenario)
    {
        using var directory = new TempVenueDirectory();
        using IHost host = await StartAsync(directory, pipelineMode, overrides);
        try
        {
            (FixTestClient buyer, FixTestClient seller) = await LogOnBuyerAndSellerAsync(host);
            await using FixTestClient buyerConnection = buyer;
            await using FixTestClient sellerConnection = seller;
            await scenario(host, buyer, seller);
        }
        finally
        {
            await host.StopAsync();
        }
    }

    /// <summary>A started venue on the settings file <paramref name="config"/>, with command-line <paramref name="overrides"/>.</summary>
    public static async Task<IHost> StartAsync(string config, params string[] overrides)
    {
        IHost host = VenueProgram.Build(["--config", config, .. overrides]);
        try
        {
            await host.StartAsync().WaitAsync(TimeSpan.FromSeconds(30));
            return host;
        }
        catch
        {
            host.Dispose();
            throw;
        }
    }
}
