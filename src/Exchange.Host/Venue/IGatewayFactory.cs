using Exchange.Core.Domain;
using Exchange.Fix.Gateway;
using Exchange.Host.Configuration;

namespace Exchange.Host.Venue;

/// <summary>
/// Builds the FIX gateway once the venue's own parts exist (it needs the command publisher and the market-data request
/// handler). Production builds the real FixGateway; tests substitute a fake gateway.
/// </summary>
internal interface IGatewayFactory
{
    IFixGateway Create(VenueOptions options, IReadOnlyList<Instrument> instruments, ICommandPublisher commands, IMarketDataRequestHandler marketData);
}
