using System.Net;
using Exchange.Core.Domain;
using Exchange.Host.Configuration;
using Exchange.Host.Venue;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>The venue process refuses bad configuration at start with exit code 2 and a message naming what to fix.</summary>
public sealed class VenueProgramTests
{
    [Fact]
    public void A_settings_file_given_as_config_equals_path_is_the_one_used()
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "");

        using IHost host = VenueProgram.Build(["--config=" + config]);

        Assert.Equal(directory.JournalPath, host.Services.GetRequiredService<VenueOptions>().Journal.Path);
    }

    [Fact]
    public async Task An_unknown_strategy_name_exits_with_code_2_and_lists_the_available_names()
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "");

        (int exitCode, string error) = await VenueProcess.RunToExitAsync(
            directory.Path, "--config", config, "--Venue:Strategies:LevelIndex=Skiplist");

        Assert.Equal(2, exitCode);
        Assert.Contains("Venue:Strategies:LevelIndex: Unknown price-level index strategy 'Skiplist'", error, StringComparison.Ordinal);
        Assert.Contains("SortedArray", error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal); // a configuration error, not a crash
        Assert.False(File.Exists(Path.Combine(directory.Path, "journal.bin")), "nothing may start before the strategies resolve");
    }

    [Fact]
    public async Task An_invalid_setting_exits_with_code_2_naming_the_key_and_the_allowed_values()
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "");

        (int exitCode, string error) = await VenueProcess.RunToExitAsync(
            directory.Path, "--config", config, "--Venue:Pipeline:SenderWait=Hurry");

        Assert.Equal(2, exitCode);
        Assert.Contains("Venue:Pipeline:SenderWait: 'Hurry' is not allowed. Allowed values: BusySpin, Yielding, Sleeping, Blocking.", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_corrupt_journal_exits_with_code_1_naming_the_file_and_offset_and_leaves_the_file_as_it_was()
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "");
        await VenueJournalIntegrityTests.WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 6);
        long offset = Journal.JournalTestData.RecordOffset(2);
        Journal.JournalTestData.FlipBit(directory.JournalPath, offset + 12);
        byte[] before = File.ReadAllBytes(directory.JournalPath);

        (int exitCode, string error) = await VenueProcess.RunToExitAsync(directory.Path, "--config", config);

        Assert.True(exitCode == 1, error);
        Assert.Contains($"Exchange venue refused to start: Journal '{directory.JournalPath}' is corrupt: the record at offset {offset}", error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllBytes(directory.JournalPath));
    }

    [Fact]
    public async Task A_journal_of_reordered_instruments_exits_with_code_2_naming_the_difference()
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "", symbols: ["MSFT", "AAPL"]);
        await VenueJournalIntegrityTests.WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 2);

        (int exitCode, string error) = await VenueProcess.RunToExitAsync(directory.Path, "--config", config);

        Assert.Equal(2, exitCode);
        Assert.Contains("instrument 0 was AAPL, the configuration now has MSFT at 0", error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_port_in_use_exits_with_code_1_naming_the_address_without_a_stack_trace()
    {
        using var directory = new TempVenueDirectory();
        using var occupant = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        occupant.Start();
        int port = ((IPEndPoint)occupant.LocalEndpoint).Port;
        string config = VenueConfigFile.Write(directory.Path, port: port, storePath: "");
        using var error = new StringWriter();

        int exitCode = await VenueProgram.RunHostAsync(VenueProgram.Build(["--config", config]), error)
            .WaitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(VenueProgram.ExitStartFailure, exitCode);
        Assert.Contains($"Exchange venue failed to start: cannot listen on 127.0.0.1:{port}: ", error.ToString(), StringComparison.Ordinal);
        Assert.Contains("Venue:Listen:Port", error.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_journal_path_that_cannot_be_created_exits_with_code_1_naming_it_without_a_stack_trace()
    {
        using var directory = new TempVenueDirectory();
        string notADirectory = Path.Combine(directory.Path, "plain-file");
        await File.WriteAllTextAsync(notADirectory, "x");
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "");
        using var error = new StringWriter();

        int exitCode = await VenueProgram.RunHostAsync(
            VenueProgram.Build(["--config", config, $"--Venue:Journal:Path={notADirectory}/journal.bin"]), error)
            .WaitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(VenueProgram.ExitStartFailure, exitCode);
        Assert.Contains("Exchange venue failed to start: ", error.ToString(), StringComparison.Ordinal);
        Assert.Contains(notADirectory, error.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task A_matcher_fault_while_running_stops_the_venue_gracefully_with_exit_code_3(string pipelineMode)
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "", pipelineMode: pipelineMode);
        IHost host = VenueHost.BuildWithEngine(config, (_, instruments) =>
        {
            var store = new FakeMarketDataStore();
            store.Initialize(instruments.Count);
            return new VenueEngine(new ThrowingEngine("BOOM"), store, "engine with a defect");
        });
        using var error = new StringWriter();
        Task<int> run = VenueProgram.RunHostAsync(host, error);

        IPEndPoint endPoint = await host.Services.GetRequiredService<VenueEndpoint>().Bound.WaitAsync(TimeSpan.FromSeconds(30));
        await using FixTestClient client = await FixTestClient.ConnectAsync(endPoint, "CLIENT1");
        await client.LogonAsync();
        await client.ExpectAsync(m => m[35] == "A", "Logon reply");
        await client.NewOrderAsync("OK1", '1', 10, "100.00");
        await client.ExpectExecutionAsync("OK1", '0');
        await client.NewOrderAsync("BOOM", '1', 10, "100.00");

        int exitCode = await run.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(VenueProgram.ExitFaulted, exitCode);
        Assert.Contains("Exchange venue stopped after a fault: InvalidOperationException: engine defect triggered by BOOM", error.ToString(), StringComparison.Ordinal);

        // Graceful even so: the session was logged out, not dropped.
        await client.ExpectAsync(m => m[35] == "5", "Logout");
    }

    [Fact]
    public async Task A_failure_while_stopping_a_started_venue_is_not_reported_as_a_failed_start()
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "");
        IHost host = VenueProgram.Build(["--config", config], services => services.AddHostedService<FailsWhenStopped>());
        using var error = new StringWriter();
        Task<int> run = VenueProgram.RunHostAsync(host, error);
        await host.Services.GetRequiredService<VenueEndpoint>().Bound.WaitAsync(TimeSpan.FromSeconds(30));

        host.Services.GetRequiredService<IHostApplicationLifetime>().StopApplication();
        int exitCode = await run.WaitAsync(TimeSpan.FromSeconds(30));

        Assert.Equal(VenueProgram.ExitStartFailure, exitCode);
        Assert.Contains("Exchange venue stopped, but the stop failed: ", error.ToString(), StringComparison.Ordinal);
        Assert.Contains("disk gone at the final sync", error.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("failed to start", error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_stop_requested_during_start_up_exits_zero_without_signalling_started()
    {
        // systemd sends SIGTERM whenever it likes, also during a long journal replay: the venue must not then report
        // itself started (READY=1 after STOPPING=1) nor open its listener, and the stop is not a failure.
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "");
        IHost host = VenueHost.BuildWithEngine(config, (provider, instruments) =>
        {
            provider.GetRequiredService<IHostApplicationLifetime>().StopApplication();
            return VenueEngine.FromPlugins(provider.GetRequiredService<VenueOptions>(), instruments);
        });
        IHostApplicationLifetime lifetime = host.Services.GetRequiredService<IHostApplicationLifetime>();
        bool startedAfterStopping = false;
        lifetime.ApplicationStarted.Register(() => startedAfterStopping = lifetime.ApplicationStopping.IsCancellationRequested);
        Task<IPEndPoint> bound = host.Services.GetRequiredService<VenueEndpoint>().Bound;
        using var error = new StringWriter();

        int exitCode = await VenueProgram.RunHostAsync(host, error).WaitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(0, exitCode);
        Assert.Equal("", error.ToString());
        Assert.False(startedAfterStopping);
        Assert.False(bound.IsCompleted);
    }

    [Theory]
    [InlineData(null, 20)] // the host's default ShutdownTimeout, 30 s: inside systemd's TimeoutStopSec=30
    [InlineData(60, 50)]
    [InlineData(5, 1)]
    public void The_stop_budget_follows_the_hosts_shutdown_timeout(int? shutdownTimeoutSeconds, int budgetSeconds)
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "");
        string[] args = shutdownTimeoutSeconds is { } seconds ? ["--config", config, $"--shutdownTimeoutSeconds={seconds}"] : ["--config", config];
        using IHost host = VenueProgram.Build(args);

        Assert.Equal(TimeSpan.FromSeconds(budgetSeconds), host.Services.GetRequiredService<VenueService>().StopBudget);
    }

    [Fact]
    public async Task A_start_cut_short_by_the_hosts_startup_timeout_is_a_failed_start_that_says_so()
    {
        // HostOptions.StartupTimeout (startupTimeoutSeconds) cancels the start like a stop request does, but nobody
        // asked the venue to stop: that is a start that failed, and the operator needs to know which limit ended it.
        // The engine is built only once the timeout has fired: a fixed sleep raced the timer, whose callback a busy
        // thread pool (the whole suite in parallel) once ran after the start had passed its last look at the token.
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "");
        var startToken = new StartTokenCapture();
        IHost host = VenueHost.BuildWithEngine(
            config,
            (provider, instruments) =>
            {
                Assert.True(startToken.Token.WaitHandle.WaitOne(TimeSpan.FromSeconds(30)), "the host's StartupTimeout never fired");
                return VenueEngine.FromPlugins(provider.GetRequiredService<VenueOptions>(), instruments);
            },
            services =>
            {
                services.Configure<HostOptions>(options => options.StartupTimeout = TimeSpan.FromMilliseconds(50));
                services.AddSingleton<IHostedService>(startToken);
            });
        Task<IPEndPoint> bound = host.Services.GetRequiredService<VenueEndpoint>().Bound;
        using var error = new StringWriter();

        int exitCode = await VenueProgram.RunHostAsync(host, error).WaitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(VenueProgram.ExitStartFailure, exitCode);
        Assert.StartsWith("Exchange venue failed to start: it had not finished starting when the host's StartupTimeout", error.ToString(), StringComparison.Ordinal);
        Assert.False(bound.IsCompleted);
    }

    /// <summary>Keeps the token the host starts its services with (StartingAsync runs before any service's StartAsync).</summary>
    private sealed class StartTokenCapture : IHostedLifecycleService
    {
        public CancellationToken Token { get; private set; } = new CancellationToken(canceled: false);

        public Task StartingAsync(CancellationToken cancellationToken)
        {
            Token = cancellationToken;
            return Task.CompletedTask;
        }

        public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task StartedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task StoppingAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }

    /// <summary>A hosted service whose stop fails with an I/O error, as a final sync on a lost disk would.</summary>
    private sealed class FailsWhenStopped : IHostedService
    {
        public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task StopAsync(CancellationToken cancellationToken) => throw new IOException("disk gone at the final sync");
    }
}
