using System.Text;

namespace Exchange.Fix.Tests.Session;

/// <summary>One outbound message as the test encoder framed it, split back into (tag, value) fields.</summary>
internal sealed class SentMessage
{
    public SentMessage(ReadOnlySpan<byte> raw)
    {
        Raw = Encoding.ASCII.GetString(raw);
        foreach (string part in Raw.Split('\u0001', StringSplitOptions.RemoveEmptyEntries))
        {
            int eq = part.IndexOf('=', StringComparison.Ordinal);
            Fields.Add((int.Parse(part[..eq], System.Globalization.CultureInfo.InvariantCulture), part[(eq + 1)..]));
        }
    }

    public string Raw { get; }

    public List<(int Tag, string Value)> Fields { get; } = [];

    public string MsgType => Get(35)!;

    public int SeqNum => GetInt(34);

    public bool Has(int tag) => Fields.Exists(f => f.Tag == tag);

    public string? Get(int tag)
    {
        foreach (var (t, v) in Fields)
        {
            if (t == tag)
            {
                return v;
            }
        }

        return null;
    }

    public int GetInt(int tag) => int.Parse(Get(tag) ?? throw new KeyNotFoundException($"tag {tag} missing in {Readable}"), System.Globalization.CultureInfo.InvariantCulture);

    public long GetLong(int tag) => long.Parse(Get(tag) ?? throw new KeyNotFoundException($"tag {tag} missing in {Readable}"), System.Globalization.CultureInfo.InvariantCulture);

    public string Readable => Raw.Replace('\u0001', '|');

    public override string ToString() => Readable;
}
