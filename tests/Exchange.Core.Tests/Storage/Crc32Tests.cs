using System.Text;
using Exchange.Core.Storage;
using Xunit;

namespace Exchange.Core.Tests.Storage;

public class Crc32Tests
{
    [Fact]
    public void Compute_MatchesTheStandardCheckValue()
    {
        Assert.Equal(0xCBF43926u, Crc32.Compute(Encoding.ASCII.GetBytes("123456789")));
        Assert.Equal(0u, Crc32.Compute([]));
    }

    [Fact]
    public void Compute_MatchesABitwiseReferenceForEveryLengthAndAlignment()
    {
        var random = new Random(12345);
        byte[] data = new byte[300];
        random.NextBytes(data);
        for (int start = 0; start < 8; start++)
        {
            for (int length = 0; length < 200; length++)
            {
                ReadOnlySpan<byte> slice = data.AsSpan(start, length);
                Assert.Equal(BitwiseCrc32(slice), Crc32.Compute(slice));
            }
        }
    }

    private static uint BitwiseCrc32(ReadOnlySpan<byte> data)
    {
        uint crc = 0xFFFFFFFFu;
        foreach (byte value in data)
        {
            crc ^= value;
            for (int bit = 0; bit < 8; bit++)
            {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
            }
        }

        return ~crc;
    }
}
