using Exchange.Host.Pipeline;
using Exchange.Host.Tests.Pipeline;
using Exchange.Host.Threading;
using Xunit;

namespace Exchange.Host.Tests.Threading;

public class ThreadAffinityTests
{
    [Fact]
    public void PinToCpu0_SucceedsOrReportsNotPermittedCleanly()
    {
        // On a throwaway thread: pinning the test runner's thread would constrain other tests.
        AffinityResult result = OnNewThread(() => ThreadAffinity.PinCurrentThread(0));

        if (OperatingSystem.IsLinux() || OperatingSystem.IsWindows())
        {
            Assert.Contains(result.Outcome, new[] { AffinityOutcome.Pinned, AffinityOutcome.NotPermitted });
            Assert.Equal(result.IsPinned ? 0 : result.ErrorCode, result.ErrorCode);
        }
        else
        {
            Assert.Equal(AffinityOutcome.NotSupported, result.Outcome);
        }

        Assert.Equal(0, result.Cpu);
        Assert.False(string.IsNullOrEmpty(result.Describe()));
    }

    [Theory]
    [InlineData(9999)]
    [InlineData(-1)]
    public void PinToImpossibleCpu_ReturnsInvalidCpuWithoutThrowing(int cpu)
    {
        AffinityResult result = OnNewThread(() => ThreadAffinity.PinCurrentThread(cpu));

        if (OperatingSystem.IsLinux() || OperatingSystem.IsWindows())
        {
            Assert.Equal(AffinityOutcome.InvalidCpu, result.Outcome);
            Assert.NotEqual(0, result.ErrorCode);
            Assert.Contains("running unpinned", result.Describe(), StringComparison.Ordinal);
        }
    }

    [Fact]
    public void PinToCpuBeyondThisMachineButInsideTheMask_IsRefusedByTheKernelAsInvalid()
    {
        if (!OperatingSystem.IsLinux() || Environment.ProcessorCount >= 1000)
        {
            return;
        }

        AffinityResult result = OnNewThread(() => ThreadAffinity.PinCurrentThread(1000));

        Assert.Equal(AffinityOutcome.InvalidCpu, result.Outcome);
        Assert.Equal(22, result.ErrorCode);
    }

    [Fact]
    public void Processor_WithCpu_ReportsThePinningOutcome()
    {
        var ring = new SequenceRing<TestEvent>(16, ProducerMode.Single);
        var processor = ring.AddProcessor(new StampingHandler(false), WaitStrategyKind.Blocking, "test-pinned", cpu: 9999);
        AffinityResult? reported = null;
        processor.PinHandler = (_, result) => reported = result;
        ring.Start();
        RingTestHelpers.Produce(ring, 0, 3);
        Assert.True(ring.DrainAndStop(RingTestHelpers.Timeout));

        Assert.Equal(3, processor.Handler.Count);
        Assert.NotNull(processor.PinResult);
        Assert.Equal(processor.PinResult, reported);
        Assert.False(processor.PinResult.Value.IsPinned);
    }

    private static AffinityResult OnNewThread(Func<AffinityResult> action)
    {
        AffinityResult result = default;
        var thread = new Thread(() => result = action()) { IsBackground = true };
        thread.Start();
        Assert.True(thread.Join(TimeSpan.FromSeconds(30)));
        return result;
    }
}
