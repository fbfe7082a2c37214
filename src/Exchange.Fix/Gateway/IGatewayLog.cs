namespace Exchange.Fix.Gateway;

/// <summary>
/// Where the gateway reports connection-level events (logons, disconnects, garbled input, slow consumers). Called
/// off the per-message path only, with preformatted text, so Exchange.Fix needs no logging framework; the host
/// adapts it to its logger. Must be thread-safe.
/// </summary>
public interface IGatewayLog
{
    void Info(string message);

    void Warn(string message);
}
