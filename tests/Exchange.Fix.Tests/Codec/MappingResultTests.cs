using System.Runtime.CompilerServices;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Mapping;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class MappingResultTests
{
    [Fact]
    public void FitsInOneRegister()
    {
        Assert.Equal(8, Unsafe.SizeOf<MappingResult>());
    }

    [Fact]
    public void EverySessionRejectReason_RoundTrips()
    {
        foreach (SessionRejectReason reason in Enum.GetValues<SessionRejectReason>())
        {
            MappingResult result = MappingResult.Session(373, reason);

            Assert.Equal(MappingOutcome.SessionReject, result.Outcome);
            Assert.Equal(373, result.RefTag);
            Assert.Equal(reason, result.SessionReason);
        }
    }

    [Fact]
    public void BusinessReject_KeepsTagAndReason()
    {
        MappingResult result = MappingResult.Business(FixTags.Price, RejectReason.PriceOffTick);

        Assert.Equal(MappingOutcome.BusinessReject, result.Outcome);
        Assert.Equal(FixTags.Price, result.RefTag);
        Assert.Equal(RejectReason.PriceOffTick, result.Reason);
        Assert.False(result.IsOk);
        Assert.True(MappingResult.Ok.IsOk);
    }
}
