using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// The group hash puts a client's numbered ids (same text but the last character) together, and nothing else: the
/// full hash, the owner and every other byte still tell keys apart.
/// </summary>
public class ClOrdIdHashTests
{
    [Fact]
    public void Numbered_ids_share_a_group_but_not_a_full_hash()
    {
        string[] ids = [.. Enumerable.Range(0, 10).Select(i => $"A-123{i}")];
        ulong group = ClOrdIdHash.Group(1, ClOrdId.From(ids[0]));
        var full = new HashSet<ulong>();
        foreach (string id in ids)
        {
            ClOrdId clOrdId = ClOrdId.From(id);
            Assert.Equal(group, ClOrdIdHash.Group(1, clOrdId));
            Assert.True(full.Add(ClOrdIdHash.Full(group, clOrdId)), id);
            Assert.Equal(ClOrdIdIndex.Hash(1, clOrdId), ClOrdIdHash.Full(group, clOrdId));
        }
    }

    [Theory]
    [InlineData(1, "A-1239", 2, "A-1239")]
    [InlineData(1, "A-1239", 1, "A-1249")]
    [InlineData(1, "A-1239", 1, "B-1239")]
    [InlineData(1, "A-123", 1, "A-1239")]
    [InlineData(1, "x", 1, "xy")]
    public void Another_owner_or_any_earlier_byte_is_another_group(int owner, string id, int otherOwner, string otherId) =>
        Assert.NotEqual(ClOrdIdHash.Group(owner, ClOrdId.From(id)), ClOrdIdHash.Group(otherOwner, ClOrdId.From(otherId)));

    [Fact]
    public void A_group_filled_with_every_last_byte_stays_exact()
    {
        // 94 printable last bytes on one prefix: one group, so probes run far past its 16 entries and wrap into others.
        var used = new UsedClOrdIds(256);
        var recorded = new List<ClOrdId>();
        for (char c = '!'; c <= '~'; c++)
        {
            var id = ClOrdId.From("P-" + c);
            ulong group = ClOrdIdHash.Group(3, id);
            Assert.False(used.Contains(group, 3, id, out int free));
            used.Record(free, group, 3, id, orderId: 1, instrumentId: 0);
            recorded.Add(id);
        }

        foreach (ClOrdId id in recorded)
        {
            Assert.True(used.Contains(ClOrdIdHash.Group(3, id), 3, id, out _));
            Assert.False(used.Contains(ClOrdIdHash.Group(4, id), 4, id, out _));
        }

        Assert.False(used.Contains(ClOrdIdHash.Group(3, ClOrdId.From("P-!!")), 3, ClOrdId.From("P-!!"), out _));
    }
}
