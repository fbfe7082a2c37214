using Exchange.Host.Configuration;
using Exchange.Host.Tests.Venue;
using Exchange.Host.Venue;
using Microsoft.Extensions.Configuration;
using Xunit;

namespace Exchange.Host.Tests.Configuration;

/// <summary>
/// Configuration the binder or the host would read badly, or not at all, stops the venue with exit code 2 and a message
/// naming the setting: never a stack trace, and never a start on other settings than the operator gave.
/// </summary>
public sealed class ConfigurationRefusalTests
{
    /// <summary>Runs the venue with <paramref name="arguments"/>: exit code 2, <paramref name="named"/> in its message, no stack trace.</summary>
    private static async Task AssertRefusedAtStartAsync(string named, string workingDirectory, params string[] arguments)
    {
        (int exitCode, string error) = await VenueProcess.RunToExitAsync(workingDirectory, arguments);

        Assert.True(exitCode == 2, $"exit code {exitCode}; standard error:{Environment.NewLine}{error}");
        Assert.Contains(named, error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal);
    }

    private static IConfiguration Build(string? file, params string[] args)
    {
        var builder = new ConfigurationBuilder();
        VenueConfiguration.AddVenueSources(builder, file, args);
        return builder.Build();
    }

    // A settings file that does not exist (a typo in the unit's --config path).
    [Fact]
    public async Task A_missing_settings_file_exits_with_code_2_naming_it_without_a_stack_trace()
    {
        using var directory = new TempVenueDirectory();
        string missing = Path.Combine(directory.Path, "no-such-venue.json");

        await AssertRefusedAtStartAsync(missing, directory.Path, "--config", missing);
    }

    // A settings file that is not valid JSON.
    [Fact]
    public async Task A_settings_file_that_is_not_json_exits_with_code_2_without_a_stack_trace()
    {
        using var directory = new TempVenueDirectory();
        string config = Path.Combine(directory.Path, "venue.json");
        await File.WriteAllTextAsync(config, """{ "Venue": { "Listen": { "Port": 9878, } """);

        await AssertRefusedAtStartAsync(config, directory.Path, "--config", config);
    }

    // An override with a single dash (a typo for --Venue:...).
    [Fact]
    public async Task A_malformed_command_line_override_exits_with_code_2_without_a_stack_trace()
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "");

        const string oneDash = "-Venue:Pipeline:MatcherWait=Yielding";
        await AssertRefusedAtStartAsync(oneDash, directory.Path, "--config", config, oneDash);
    }

    // A price too large for decimal once scaled by PriceDecimals.
    [Theory]
    [InlineData("--Venue:Instruments:0:MaxPrice=10000000000000000000000000")]
    [InlineData("--Venue:Instruments:0:TickSize=10000000000000000000000000")]
    public void A_huge_price_is_refused_naming_the_key_not_thrown_as_an_overflow(string arg)
    {
        Exception? thrown = Record.Exception(() => VenueConfiguration.Bind(Build(null, arg)));

        var ex = Assert.IsType<VenueConfigurationException>(thrown);
        Assert.Contains(ex.Errors, e => e.StartsWith("Venue:Instruments:0:", StringComparison.Ordinal));
    }

    // A value given to a section instead of to one of its keys, which the binder would skip.
    [Theory]
    [InlineData("--Venue:Journal=/var/lib/exchange/journal.bin")]
    [InlineData("--Venue:Strategies=TickLadder")]
    [InlineData("--Venue:Listen=0.0.0.0")]
    public void A_value_given_to_a_section_is_refused_naming_it(string arg)
    {
        Exception? thrown = Record.Exception(() => VenueConfiguration.Bind(Build(null, arg)));

        var ex = Assert.IsType<VenueConfigurationException>(thrown);
        Assert.Contains(arg[2..arg.IndexOf('=', StringComparison.Ordinal)], ex.Message, StringComparison.Ordinal);
    }

    // A misspelt top-level section, which nothing would read.
    [Theory]
    [InlineData("--Venu:Pipeline:MatcherWait=BusySpin")]
    [InlineData("--Vneue:Journal:Fsync=Never")]
    public void A_misspelt_top_level_section_is_refused_naming_it(string arg)
    {
        Exception? thrown = Record.Exception(() => VenueConfiguration.Bind(Build(null, arg)));

        var ex = Assert.IsType<VenueConfigurationException>(thrown);
        Assert.Contains(arg[2..arg.IndexOf(':', StringComparison.Ordinal)] + ": not a setting of the venue", ex.Message, StringComparison.Ordinal);
    }

    // The host's own keys stay allowed beside Venue, and so do other tools' EXCHANGE_ variables in the environment.
    [Fact]
    public void The_hosts_own_top_level_keys_and_other_tools_environment_variables_are_accepted()
    {
        Environment.SetEnvironmentVariable("EXCHANGE_BENCH_TEST_ONLY", "1");
        try
        {
            VenueConfiguration.Bind(Build(null, "--Logging:LogLevel:Default=Debug", "--shutdownTimeoutSeconds=60", "--startupTimeoutSeconds=30"));
        }
        finally
        {
            Environment.SetEnvironmentVariable("EXCHANGE_BENCH_TEST_ONLY", null);
        }
    }

    // A CompID that cannot be part of the store's file name.
    [Theory]
    [InlineData("FIRM/A")]
    [InlineData("FIRM\\A")]
    [InlineData("FIRM:A")]
    public void A_comp_id_that_cannot_name_a_file_is_refused(string compId)
    {
        Exception? thrown = Record.Exception(() => VenueConfiguration.Bind(Build(null, $"--Venue:Sessions:0:TargetCompId={compId}")));

        var ex = Assert.IsType<VenueConfigurationException>(thrown);
        Assert.Contains(ex.Errors, e => e.StartsWith("Venue:Sessions:0:TargetCompId:", StringComparison.Ordinal) && e.Contains("store file", StringComparison.Ordinal));
    }

    // Two different sessions whose store files would have the same name.
    [Fact]
    public void Two_configured_sessions_never_share_a_session_store_file()
    {
        Exception? thrown = Record.Exception(() => VenueConfiguration.Bind(Build(
            null,
            "--Venue:Sessions:0:SenderCompId=EXCH", "--Venue:Sessions:0:TargetCompId=FIRM-A",
            "--Venue:Sessions:1:SenderCompId=EXCH-FIRM", "--Venue:Sessions:1:TargetCompId=a")));

        var ex = Assert.IsType<VenueConfigurationException>(thrown);
        Assert.Contains(ex.Errors, e => e.StartsWith("Venue:Sessions:1:", StringComparison.Ordinal) && e.Contains("EXCH->FIRM-A", StringComparison.Ordinal));
    }

    // The stop-time setting README documents (--shutdownTimeoutSeconds=120), malformed: the host would use its default.
    [Theory]
    [InlineData("--shutdownTimeoutSeconds=2m")]
    [InlineData("--shutdownTimeoutSeconds=-5")]
    [InlineData("--shutdownTimeoutSeconds=120.5")]
    public void A_malformed_shutdown_timeout_is_refused_not_replaced_by_the_default(string arg)
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "");

        Exception? thrown = Record.Exception(() => VenueProgram.Build(["--config", config, arg]).Dispose());

        var ex = Assert.IsType<VenueConfigurationException>(thrown);
        Assert.Contains("shutdownTimeoutSeconds", ex.Message, StringComparison.Ordinal);
    }
}
