using System.IO.Pipelines;
using Exchange.Fix.Gateway;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>The async read loop over a real <see cref="Pipe"/>: split input, and the end of a connection.</summary>
public sealed class GatewayPipeTests
{
    [Fact]
    public async Task Messages_written_one_byte_at_a_time_are_handled_and_disconnect_is_reported()
    {
        using var h = new GatewayHarness();
        var pipe = new Pipe();
        var connection = new FakeConnection(pipe.Writer);
        Task run = h.Gateway.RunConnectionAsync(connection, pipe.Reader, CancellationToken.None);

        byte[] input = [.. h.Message("A", "98=0|108=30|"), .. h.Message("D", GatewayHarness.NewOrder("ORD-B"))];
        foreach (byte b in input)
        {
            await pipe.Writer.WriteAsync(new[] { b });
        }

        for (int i = 0; i < 1000 && h.Publisher.Commands.Count == 0; i++)
        {
            await Task.Delay(5);
        }

        Assert.Equal("ORD-B", Assert.Single(h.Publisher.Commands).ClOrdId.ToString());
        Assert.True(h.Gateway.IsLoggedOn(0));
        lock (connection.WriteLock)
        {
            Assert.Equal("A", Assert.Single(GatewayHarness.Parse(connection.Recorded.Flushed))[35]);
        }

        await pipe.Writer.CompleteAsync();
        await run.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.False(h.Gateway.IsLoggedOn(0));
        Assert.Equal([0], h.MarketData.Disconnected);
        Assert.Equal(1, connection.CloseCount);
    }

    [Fact]
    public async Task Logout_all_sends_logout_and_closes_when_the_client_does_not_answer()
    {
        using var h = new GatewayHarness();
        var pipe = new Pipe();
        var connection = new FakeConnection(pipe.Writer);
        Task run = h.Gateway.RunConnectionAsync(connection, pipe.Reader, CancellationToken.None);
        await pipe.Writer.WriteAsync(h.Message("A", "98=0|108=30|"));
        for (int i = 0; i < 1000 && !h.Gateway.IsLoggedOn(0); i++)
        {
            await Task.Delay(5);
        }

        await h.Gateway.LogoutAllAsync("venue closing", TimeSpan.FromMilliseconds(50));
        await run.WaitAsync(TimeSpan.FromSeconds(10));

        List<Dictionary<int, string>> sent = GatewayHarness.Parse(connection.Recorded.Flushed);
        Assert.Equal(["A", "5"], sent.Select(m => m[35]));
        Assert.Equal("venue closing", sent[1][58]);
        Assert.Equal(Exchange.Fix.Session.SessionState.Disconnected, h.Gateway.GetSession(0).State);
    }
}
