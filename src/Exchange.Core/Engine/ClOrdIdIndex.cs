using Exchange.Core.Domain;

namespace Exchange.Core.Engine;

/// <summary>
/// Live orders by (owner, ClOrdID) → engine order id. Client ids are unique per owner only, so the owner is part of the
/// key; a cancel naming another owner's id simply does not find it.
/// </summary>
/// <remarks>
/// Matcher thread only. The dictionary is pre-sized; removals put entries on its free list and adds reuse them, so a
/// steady number of live orders allocates nothing. Entries exist only while the order rests.
/// </remarks>
internal sealed class ClOrdIdIndex
{
    private readonly Dictionary<OwnerClOrdId, long> _orders;

    public ClOrdIdIndex(int initialCapacity) => _orders = new Dictionary<OwnerClOrdId, long>(initialCapacity);

    public bool Contains(int ownerId, in ClOrdId clOrdId) => _orders.ContainsKey(new OwnerClOrdId(ownerId, clOrdId));

    public bool TryGet(int ownerId, in ClOrdId clOrdId, out long orderId) =>
        _orders.TryGetValue(new OwnerClOrdId(ownerId, clOrdId), out orderId);

    public void Add(int ownerId, in ClOrdId clOrdId, long orderId) => _orders.Add(new OwnerClOrdId(ownerId, clOrdId), orderId);

    public void Remove(int ownerId, in ClOrdId clOrdId) => _orders.Remove(new OwnerClOrdId(ownerId, clOrdId));

    private readonly struct OwnerClOrdId(int ownerId, ClOrdId clOrdId) : IEquatable<OwnerClOrdId>
    {
        private readonly int _ownerId = ownerId;
        private readonly ClOrdId _clOrdId = clOrdId;

        public bool Equals(OwnerClOrdId other) => _ownerId == other._ownerId && _clOrdId.Equals(other._clOrdId);

        public override bool Equals(object? obj) => obj is OwnerClOrdId other && Equals(other);

        public override int GetHashCode() => HashCode.Combine(_ownerId, _clOrdId.GetHashCode());
    }
}
