using Exchange.LoadClient.Orders;
using Xunit;

namespace Exchange.Host.Tests.LoadClient;

public class ClOrdIdCodecTests
{
    [Theory]
    [InlineData('O', 0L, "ORUN0001" + "0000000000")]
    [InlineData('O', 1_234_567L, "ORUN0001" + "0001234567")]
    [InlineData('P', ClOrdIdCodec.MaxNumber, "PRUN0001" + "9999999999")]
    public void Write_ThenRead_RoundTrips(char kindByte, long number, string expected)
    {
        var kind = (OrderKind)kindByte;
        var codec = new ClOrdIdCodec("RUN0001");
        byte[] bytes = new byte[ClOrdIdCodec.Length];

        codec.Write(kind, number, bytes);

        Assert.Equal(expected, System.Text.Encoding.ASCII.GetString(bytes));
        Assert.True(codec.TryRead(bytes, out OrderKind readKind, out long readNumber));
        Assert.Equal(kind, readKind);
        Assert.Equal(number, readNumber);
    }

    [Theory]
    [InlineData("ORUN00020000000001")] // another run
    [InlineData("ORUN0001000000001")] // too short
    [InlineData("XRUN00010000000001")] // unknown kind
    [InlineData("ORUN000100000000a1")] // not a number
    [InlineData("client-order-1")]
    public void Read_RejectsForeignIds(string clOrdId)
    {
        var codec = new ClOrdIdCodec("RUN0001");
        Assert.False(codec.TryRead(System.Text.Encoding.ASCII.GetBytes(clOrdId), out _, out _));
    }

    [Fact]
    public void Write_RejectsNumbersOverTenDigits()
    {
        var codec = new ClOrdIdCodec("RUN0001");
        Assert.Throws<ArgumentOutOfRangeException>(() => codec.Write(OrderKind.Flow, ClOrdIdCodec.MaxNumber + 1, new byte[ClOrdIdCodec.Length]));
    }

    [Fact]
    public void RunIdFrom_IsSevenBase36Digits()
    {
        Assert.Equal("0000000", ClOrdIdCodec.RunIdFrom(0));
        Assert.Equal("000000Z", ClOrdIdCodec.RunIdFrom(35));
        Assert.Equal("0000010", ClOrdIdCodec.RunIdFrom(36));
        Assert.True(ClOrdIdCodec.IsValidRunId(ClOrdIdCodec.RunIdFrom(long.MaxValue)));
    }
}
