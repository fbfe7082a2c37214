using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// A session whose store fails while the session ends (a reset whose rename failed leaves the file store refusing
/// every call until restart; an fsync error would do the same) still ends: Disconnected, the application told, so a
/// later Logon is not refused as "already connected" and cancel on disconnect still runs. The failure still reaches
/// the caller, which logs it.
/// </summary>
public sealed class SessionStoreFailureTests : IDisposable
{
    private readonly TempStoreDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void A_session_whose_store_fails_while_ending_still_ends()
    {
        if (OperatingSystem.IsWindows())
        {
            return; // The failed rename below relies on POSIX rename semantics.
        }

        string path = _directory.StorePath;
        var config = new SessionConfig(SessionHarness.Venue, SessionHarness.Client)
        {
            StorePath = path,
            FsyncPolicy = FsyncPolicy.Never,
        };
        using var h = new SessionHarness(config, config.CreateStore());
        h.LogOn();

        // The in-session reset's rename over the store file fails: the Logon throws, and the store refuses every call after.
        File.Delete(path);
        Directory.CreateDirectory(path);
        Assert.ThrowsAny<IOException>(() => h.Feed(TestMsg.Logon(1, reset: true)));

        Assert.Throws<InvalidOperationException>(h.Session.OnTransportClosed);

        Assert.Equal(SessionState.Disconnected, h.Session.State);
        Assert.Equal([DisconnectReason.PeerClosed], h.App.Disconnects);
    }
}
