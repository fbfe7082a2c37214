using System.Net;

namespace Exchange.Host.Venue;

/// <summary>
/// Where the venue actually listens, known once it has started: with Listen:Port = 0 the OS picks the port, and tests
/// (or a supervisor) read it here. Thread-safe.
/// </summary>
public sealed class VenueEndpoint
{
    private readonly TaskCompletionSource<IPEndPoint> _bound = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Completes when the listener is bound and accepting.</summary>
    public Task<IPEndPoint> Bound => _bound.Task;

    internal void SetBound(IPEndPoint endPoint) => _bound.TrySetResult(endPoint);
}
