using System.Text;
using Exchange.Fix.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// The parser reads 1..3-digit tags unrolled and longer or malformed ones byte by byte: random fields built from
/// valid and invalid tag spellings, after a longer message left stale bytes in the buffer, must parse exactly like a
/// naive split (first '=' ends the tag; digits only, no leading zero, at most 9 digits; empty value kept but an error;
/// text with no '=' after a field, not a bare number, is that field's value cut by an SOH).
/// </summary>
public sealed class FixMessageTagParseTests
{
    private static readonly string[] TagSpellings =
        ["8", "9", "35", "108", "1234", "98765", "123456789", "1234567890", "0", "05", "5x", "x5", "", "=", "10="];

    private static readonly string[] ValueSpellings = ["a", "", "1=2", "abc", "=", "8=FIX"];

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void RandomTags_ParseLikeANaiveSplit(int seed)
    {
        var random = new Random(seed);
        var message = new FixMessage();
        for (int round = 0; round < 3000; round++)
        {
            // A long message first, so the short one is parsed over stale bytes ("=" and digits among them).
            message.Parse(Encoding.ASCII.GetBytes(new string('1', 40) + "=" + new string('=', 100)));

            var fields = new List<string>();
            int count = random.Next(1, 8);
            for (int f = 0; f < count; f++)
            {
                string tag = TagSpellings[random.Next(TagSpellings.Length)];
                fields.Add(random.Next(8) == 0 ? tag : tag + "=" + ValueSpellings[random.Next(ValueSpellings.Length)]);
            }

            string text = string.Join('\u0001', fields) + (random.Next(3) == 0 ? "" : "\u0001");
            bool ok = message.Parse(Encoding.ASCII.GetBytes(text));

            (FixFieldError error, List<(int Tag, string Value)> expected) = NaiveParse(text);
            Assert.True(error == message.Error, $"'{text.Replace('\u0001', '|')}': expected {error}, got {message.Error}");
            Assert.Equal(!error.IsError, ok);
            Assert.Equal(expected.Count, message.FieldCount);
            for (int i = 0; i < expected.Count; i++)
            {
                Assert.Equal(expected[i].Tag, message.TagAt(i));
                Assert.Equal(expected[i].Value, Encoding.ASCII.GetString(message.ValueAt(i)));
            }
        }
    }

    private static (FixFieldError Error, List<(int Tag, string Value)> Fields) NaiveParse(string text)
    {
        FixFieldError error = FixFieldError.None;
        var fields = new List<(int, string)>();
        if (text.Length == 0)
        {
            return (error, fields);
        }

        string body = text.EndsWith('\u0001') ? text[..^1] : text;
        foreach (string field in body.Split('\u0001'))
        {
            int equals = field.IndexOf('=', StringComparison.Ordinal);
            string tagText = equals < 0 ? field : field[..equals];
            bool valid = equals > 0 && tagText.Length <= 9 && tagText.All(char.IsAsciiDigit) && tagText[0] != '0';
            if (!valid)
            {
                // Text with no '=' that is not a bare number after a field: the rest of that field's value, cut by an SOH.
                FixFieldError fieldError = equals < 0 && fields.Count > 0 && !field.All(char.IsAsciiDigit)
                    ? FixFieldError.Of(fields[^1].Item1, SessionRejectReason.NonDataValueIncludesFieldDelimiter)
                    : FixFieldError.Of(0, SessionRejectReason.InvalidTagNumber);
                error = error.IsError ? error : fieldError;
                continue;
            }

            int tag = int.Parse(tagText, System.Globalization.CultureInfo.InvariantCulture);
            string value = field[(equals + 1)..];
            if (value.Length == 0)
            {
                error = error.IsError ? error : FixFieldError.Of(tag, SessionRejectReason.TagSpecifiedWithoutValue);
            }

            fields.Add((tag, value));
        }

        return (error, fields);
    }
}
