using System.Text;
using Exchange.Fix.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// The parser finds field ends through a 64-byte-per-word SOH bitmap: fields ending on, before and after a word
/// boundary, and a short message parsed after a long one (stale buffer bytes past the end), must split exactly like
/// a naive split on SOH.
/// </summary>
public sealed class FixMessageBitmapParseTests
{
    [Fact]
    public void Fields_MatchNaiveSplit_ForValueLengthsAcrossWordBoundaries()
    {
        var message = new FixMessage();
        var random = new Random(7);
        for (int round = 0; round < 500; round++)
        {
            var text = new StringBuilder("8=FIX.4.4\u00019=5\u000135=D\u0001");
            int fields = random.Next(1, 40);
            for (int f = 0; f < fields; f++)
            {
                text.Append(5000 + f).Append('=').Append('x', random.Next(1, 70)).Append('\u0001');
            }

            byte[] bytes = Encoding.ASCII.GetBytes(text.ToString());
            Assert.True(message.Parse(bytes));
            string[] expected = text.ToString().TrimEnd('\u0001').Split('\u0001');
            Assert.Equal(expected.Length, message.FieldCount);
            for (int i = 0; i < expected.Length; i++)
            {
                string[] pair = expected[i].Split('=', 2);
                Assert.Equal(int.Parse(pair[0], System.Globalization.CultureInfo.InvariantCulture), message.TagAt(i));
                Assert.Equal(pair[1], Encoding.ASCII.GetString(message.ValueAt(i)));
            }
        }
    }

    [Fact]
    public void ShortMessageAfterLongOne_IgnoresStaleBytes()
    {
        var message = new FixMessage();
        string longValue = new('y', 150);
        Assert.True(message.Parse(Encoding.ASCII.GetBytes($"8=FIX.4.4\u000158={longValue}\u000158={longValue}\u0001")));

        // No trailing SOH: the last field runs to the end; stale SOHs of the previous message must not split it.
        Assert.True(message.Parse("8=FIX.4.4\u000135=0\u000158=abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"u8));
        Assert.Equal(3, message.FieldCount);
        Assert.Equal("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz", Encoding.ASCII.GetString(message.ValueAt(2)));
    }

    [Fact]
    public void MessageOfExactlyMaxSize_Parses()
    {
        var message = new FixMessage(maxMessageSize: 128);
        string prefix = "8=FIX.4.4\u000158=";
        byte[] bytes = Encoding.ASCII.GetBytes(prefix + new string('z', 128 - prefix.Length - 1) + "\u0001");
        Assert.Equal(128, bytes.Length);
        Assert.True(message.Parse(bytes));
        Assert.Equal(2, message.FieldCount);
        Assert.Throws<ArgumentException>(() => message.Parse(new byte[129]));
    }
}
