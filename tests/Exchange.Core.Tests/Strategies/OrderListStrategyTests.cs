using Exchange.Strategies.OrderLists;

namespace Exchange.Core.Tests.Strategies;

// One class per IOrderList strategy; each runs the whole contract suite in OrderListContractTests<TList>.
// To cover another strategy, add one line here.

public sealed class IntrusiveListOrderListTests : OrderListContractTests<IntrusiveListOrderList>;

public sealed class LinkedListOrderListTests : OrderListContractTests<LinkedListOrderList>;

public sealed class RingDequeOrderListTests : OrderListContractTests<RingDequeOrderList>;
