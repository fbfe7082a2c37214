using System.Diagnostics;
using System.Net.Sockets;
using System.Text;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// The venue under systemd (<c>Type=notify</c>, deploy/exchange.service): READY=1 once it accepts connections,
/// STOPPING=1 when SIGTERM begins the graceful stop, exit code 0. The hosting package recognises systemd by the name of
/// the parent process, so the venue is started by a copy of /bin/sh named "systemd", with $NOTIFY_SOCKET naming a
/// datagram socket the test reads, which is all systemd itself provides.
/// </summary>
public sealed class SystemdNotifyTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task UnderSystemd_ReadyOnceListening_StoppingOnSigterm_ExitsZero()
    {
        if (!OperatingSystem.IsLinux() || !File.Exists("/bin/sh"))
        {
            return; // systemd is Linux only.
        }

        using var directory = new TempVenueDirectory();
        int port = FreePort();
        string config = VenueConfigFile.Write(directory.Path, port, storePath: string.Empty);
        string fakeSystemd = Path.Combine(directory.Path, "systemd");
        File.Copy("/bin/sh", fakeSystemd);
        File.SetUnixFileMode(fakeSystemd, UnixFileMode.UserRead | UnixFileMode.UserExecute);

        string notifyPath = Path.Combine(directory.Path, "notify.sock");
        using var notifySocket = new Socket(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
        notifySocket.Bind(new UnixDomainSocketEndPoint(notifyPath));

        // The venue runs as a child of the shell (not exec'd in its place), so its parent is named "systemd"; the shell
        // prints the venue's pid first, then waits for it and exits with its code.
        (string program, string[] hostArguments) = VenueProcess.HostCommand();
        string venueCommand = string.Join(' ', new[] { program }.Concat(hostArguments).Append("--config").Append(config).Select(Quote));
        var start = new ProcessStartInfo(fakeSystemd)
        {
            WorkingDirectory = directory.Path,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add("-c");
        start.ArgumentList.Add($"{venueCommand} & echo $!; wait $!");
        start.Environment["NOTIFY_SOCKET"] = notifyPath;

        using var shell = Process.Start(start)!;
        var output = new StringBuilder();
        shell.ErrorDataReceived += (_, e) => { lock (output) { output.AppendLine(e.Data); } };
        shell.BeginErrorReadLine();
        try
        {
            string? pidLine = await shell.StandardOutput.ReadLineAsync().WaitAsync(Timeout);
            int venuePid = int.Parse(pidLine!, System.Globalization.CultureInfo.InvariantCulture);
            Task<string> log = shell.StandardOutput.ReadToEndAsync();

            string ready = await ReceiveAsync(notifySocket);
            Assert.Contains("READY=1", ready, StringComparison.Ordinal);

            // READY=1 is sent once every hosted service has started, so the listener must already accept.
            using (var client = new TcpClient())
            {
                await client.ConnectAsync(System.Net.IPAddress.Loopback, port).WaitAsync(Timeout);
            }

            Assert.Equal(0, Kill(venuePid, Sigterm));
            string stopping = await ReceiveAsync(notifySocket);
            Assert.Contains("STOPPING=1", stopping, StringComparison.Ordinal);

            await shell.WaitForExitAsync().WaitAsync(Timeout);
            Assert.True(shell.ExitCode == 0, $"venue exit code {shell.ExitCode}; output:{Environment.NewLine}{await log}{output}");
        }
        finally
        {
            if (!shell.HasExited)
            {
                shell.Kill(entireProcessTree: true);
            }
        }
    }

    private const int Sigterm = 15;

    [System.Runtime.InteropServices.DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Kill(int pid, int signal);

    private static async Task<string> ReceiveAsync(Socket socket)
    {
        var buffer = new byte[4096];
        int received = await socket.ReceiveAsync(buffer.AsMemory(), SocketFlags.None).AsTask().WaitAsync(Timeout);
        return Encoding.UTF8.GetString(buffer, 0, received);
    }

    private static int FreePort()
    {
        using var probe = new TcpListener(System.Net.IPAddress.Loopback, 0);
        probe.Start();
        return ((System.Net.IPEndPoint)probe.LocalEndpoint).Port;
    }

    private static string Quote(string argument) => "'" + argument.Replace("'", "'\\''", StringComparison.Ordinal) + "'";
}
