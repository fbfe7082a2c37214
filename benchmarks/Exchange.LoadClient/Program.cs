using Exchange.LoadClient.Options;
using Exchange.LoadClient.Runs;

ParseOutcome parsed = ArgumentParser.Parse(args);
if (parsed.HelpRequested)
{
    Console.WriteLine(ArgumentParser.Usage);
    return 0;
}

if (parsed.Options is null)
{
    Console.Error.WriteLine($"error: {parsed.Error}");
    Console.Error.WriteLine();
    Console.Error.WriteLine(ArgumentParser.Usage);
    return 64;
}

return new LoadRunner(parsed.Options, Console.Out).Run();
