using Exchange.AotRunner;

// Usage: Exchange.AotRunner [--combination IntrusiveList+SortedArray|all] [--commands 5000000] [--rounds 5]
//                           [--books 1000] [--resting 50000]
// Prints, per round, commands/s and bytes allocated per command on the matching thread, then the median round.
if (!RunnerOptions.TryParse(args, out RunnerOptions? options, out string? error))
{
    return Usage(error);
}

try
{
    return WorkloadRunner.Run(options, Console.Out);
}
catch (Exception e) when (e is KeyNotFoundException or ArgumentException)
{
    return Usage(e.Message); // an unknown strategy name: the message lists the names that exist
}

static int Usage(string error)
{
    Console.Error.WriteLine(error);
    Console.Error.WriteLine("usage: Exchange.AotRunner [--combination <OrderList>+<LevelIndex>|all] [--commands N] [--rounds N] [--books N] [--resting N]");
    return 2;
}
