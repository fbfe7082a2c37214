using Exchange.Host.Venue;

// The venue process; see VenueProgram for configuration sources, services and exit codes.
return await VenueProgram.RunAsync(args).ConfigureAwait(false);
