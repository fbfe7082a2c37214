using Exchange.Strategies.OrderLists;
using Exchange.Tests.Shared;
using Xunit;

namespace Exchange.Core.Tests.Strategies;

// One class per IOrderList strategy; each runs the whole contract suite in OrderListContractTests<TList>.
// To cover another strategy, add one line here.

[Collection(ZeroAllocationCollection.Name)]
public sealed class IntrusiveListOrderListTests : OrderListContractTests<IntrusiveListOrderList>;

[Collection(ZeroAllocationCollection.Name)]
public sealed class LinkedListOrderListTests : OrderListContractTests<LinkedListOrderList>;

[Collection(ZeroAllocationCollection.Name)]
public sealed class RingDequeOrderListTests : OrderListContractTests<RingDequeOrderList>;
