namespace Exchange.Host.Configuration;

/// <summary>Invalid configuration found at start; the message lists each bad key with what is allowed.</summary>
public sealed class VenueConfigurationException(IReadOnlyList<string> errors)
    : Exception("Invalid configuration:" + Environment.NewLine + "  " + string.Join(Environment.NewLine + "  ", errors))
{
    public IReadOnlyList<string> Errors { get; } = errors;
}
