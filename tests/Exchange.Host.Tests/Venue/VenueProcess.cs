using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text.RegularExpressions;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// The venue as a real process: <c>dotnet exec Exchange.Host.dll --config FILE</c> from the test output folder (the
/// host assembly, its runtimeconfig and the plugins/ folder are copied there by the test project), with its own working
/// directory. Output lines are collected; the listening port is read from the start-up log line.
/// </summary>
internal sealed partial class VenueProcess : IDisposable
{
    private readonly Process _process;
    private readonly TaskCompletionSource<IPEndPoint> _listening = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private VenueProcess(Process process) => _process = process;

    public ConcurrentQueue<string> Output { get; } = new();

    public string OutputText => string.Join(Environment.NewLine, Output);

    public static async Task<VenueProcess> StartAsync(string workingDirectory, string configFile)
    {
        var process = new Process { StartInfo = StartInfo(workingDirectory, "--config", configFile) };
        var venue = new VenueProcess(process);
        process.OutputDataReceived += (_, e) => venue.OnLine(e.Data);
        process.ErrorDataReceived += (_, e) => venue.OnLine(e.Data);
        process.Exited += (_, _) => venue._listening.TrySetException(new InvalidOperationException("venue exited before listening"));
        process.EnableRaisingEvents = true;
        Assert.True(process.Start());
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            await venue._listening.Task.WaitAsync(TimeSpan.FromSeconds(60));
        }
        catch (Exception exception) when (exception is TimeoutException or InvalidOperationException)
        {
            venue.Kill();
            Assert.Fail($"venue did not start ({exception.Message}); output:{Environment.NewLine}{venue.OutputText}");
        }

        return venue;
    }

    public IPEndPoint EndPoint => _listening.Task.Result;

    /// <summary>Runs the venue with <paramref name="arguments"/> until it exits by itself (bounded); returns its exit code and output.</summary>
    public static async Task<(int ExitCode, string StandardError)> RunToExitAsync(string workingDirectory, params string[] arguments)
    {
        using var process = new Process { StartInfo = StartInfo(workingDirectory, arguments) };
        Assert.True(process.Start());
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail("the venue did not exit; output: " + await output);
        }

        await output;
        return (process.ExitCode, await error);
    }

    /// <summary>The program and arguments that run the venue from the test output folder: <c>dotnet exec Exchange.Host.dll</c>.</summary>
    public static (string Program, string[] Arguments) HostCommand()
    {
        string hostAssembly = Path.Combine(AppContext.BaseDirectory, "Exchange.Host.dll");
        Assert.True(File.Exists(hostAssembly), $"{hostAssembly} is missing: the test project must reference Exchange.Host.");
        Assert.True(File.Exists(Path.Combine(AppContext.BaseDirectory, "Exchange.Host.runtimeconfig.json")), "Exchange.Host.runtimeconfig.json is missing beside the tests.");
        Assert.True(Directory.Exists(Path.Combine(AppContext.BaseDirectory, "plugins")), "plugins/ is missing beside the tests (see CopyVenuePlugins in the test project).");
        return (Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet", ["exec", hostAssembly]);
    }

    private static ProcessStartInfo StartInfo(string workingDirectory, params string[] arguments)
    {
        (string program, string[] hostArguments) = HostCommand();
        var start = new ProcessStartInfo(program)
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in hostArguments.Concat(arguments))
        {
            start.ArgumentList.Add(argument);
        }

        return start;
    }

    /// <summary>SIGKILL on Unix (TerminateProcess on Windows): no shutdown code runs, as in a crash.</summary>
    public void Kill()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        Assert.True(_process.WaitForExit(30_000), "venue did not die");
    }

    public void Dispose()
    {
        try
        {
            Kill();
        }
        finally
        {
            _process.Dispose();
        }
    }

    private void OnLine(string? line)
    {
        if (line is null)
        {
            return;
        }

        Output.Enqueue(line);
        Match match = ListeningLine().Match(line);
        if (match.Success)
        {
            _listening.TrySetResult(new IPEndPoint(IPAddress.Parse(match.Groups[1].Value), int.Parse(match.Groups[2].Value, CultureInfo.InvariantCulture)));
        }
    }

    [GeneratedRegex(@"listening on ([0-9.]+):(\d+)")]
    private static partial Regex ListeningLine();
}
