using System.Globalization;
using System.Text;
using Exchange.Fix.Codec;

namespace Exchange.LoadClient.Options;

/// <summary>The result of parsing the command line: options, a help request, or an error to print with the usage.</summary>
internal readonly record struct ParseOutcome(LoadClientOptions? Options, bool HelpRequested, string? Error);

/// <summary>
/// A small hand-written parser for "--name value" and "--flag" arguments (no packages). Unknown names, missing or
/// malformed values and out-of-range numbers are errors naming the argument.
/// </summary>
internal static class ArgumentParser
{
    public const string Usage = """
        Exchange.LoadClient - a FIX 4.4 initiator that measures the venue over TCP.

        Usage: Exchange.LoadClient [options]

          --host H              venue address (default 127.0.0.1)
          --port P              venue port (default 9878)
          --sender ID           SenderCompID (default LOADGEN)
          --target ID           TargetCompID (default EXCH)
          --mode M              sync | rate | pipelined | mixed (default sync)
                                  sync       one order in flight, round trip to its first ExecutionReport
                                  rate       fixed rate, latency from the intended send time (coordinated omission corrected)
                                  pipelined  sender and reader concurrently, at most --window in flight; throughput
                                  mixed      background flow at --rate (pipelined if 0); every --latency-every'th order measured
          --orders N            measured orders (default: sync 20000, others 200000)
          --rate R              orders per second in rate/mixed mode (default 50000)
          --warmup N            orders sent first and not recorded (default min(10000, orders/10))
          --latency-every K     mixed mode: measure one order in every K, the flow's four kinds in turn (default 100 = 2 per 200)
          --symbol S            instrument (default AAPL)
          --hgrm-out PATH       write the HDR percentile distribution (microseconds)
          --timeline-out PATH   write every measured order's intended, sent and received times (CSV, microseconds)
          --busy-poll           read by spinning on a non-blocking socket (burns a core) instead of blocking
          --prepopulate N       resting orders placed before measuring, half each side (default 1000)
          --window N            most orders in flight in pipelined mode and pre-population (default 4000;
                                keep under the venue's 4 MiB send backlog bound: ~500 B of replies per order)
          --batch N             pipelined mode: orders per socket send (default 64)
          --mid PRICE           mid price (default 100.00)
          --tick PRICE          tick size (default 0.01)
          --levels N            price levels each side for resting orders (default 5)
          --price-decimals N    decimals of the venue's price units (default 4)
          --qty N               order quantity (default 100)
          --heartbeat SECONDS   HeartBtInt sent at logon (default 30)
          --timeout SECONDS     longest wait for logon, last acks and logout (default 30)
          --run-id ID           7 characters [0-9A-Z] inside every ClOrdID (default: from the clock)
          --help                this text
        """;

    public static ParseOutcome Parse(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var options = new LoadClientOptions();
        string mid = "100.00";
        string tick = "0.01";
        for (int i = 0; i < args.Count; i++)
        {
            string name = args[i];
            if (name is "--help" or "-h" or "-?")
            {
                return new ParseOutcome(null, true, null);
            }

            if (name == "--busy-poll")
            {
                options = options with { BusyPoll = true };
                continue;
            }

            if (!name.StartsWith("--", StringComparison.Ordinal))
            {
                return Fail($"unexpected argument '{name}'");
            }

            if (i + 1 >= args.Count || args[i + 1].StartsWith("--", StringComparison.Ordinal))
            {
                return Fail($"{name} needs a value");
            }

            string value = args[++i];
            string? error = null;
            switch (name)
            {
                case "--host": options = options with { Host = value }; break;
                case "--port": options = options with { Port = (int)Number(name, value, 1, 65_535, ref error) }; break;
                case "--sender": options = options with { SenderCompId = CompId(name, value, ref error) }; break;
                case "--target": options = options with { TargetCompId = CompId(name, value, ref error) }; break;
                case "--mode": options = options with { Mode = Mode(value, ref error) }; break;
                case "--orders": options = options with { Orders = Number(name, value, 1, 100_000_000, ref error) }; break;
                case "--rate": options = options with { Rate = Number(name, value, 0, 10_000_000, ref error) }; break;
                case "--warmup": options = options with { Warmup = Number(name, value, 0, 100_000_000, ref error) }; break;
                case "--latency-every": options = options with { LatencyEvery = (int)Number(name, value, 1, 1_000_000, ref error) }; break;
                case "--symbol": options = options with { Symbol = CompId(name, value, ref error) }; break;
                case "--hgrm-out": options = options with { HgrmOut = value }; break;
                case "--timeline-out": options = options with { TimelineOut = value }; break;
                case "--prepopulate": options = options with { Prepopulate = (int)Number(name, value, 0, 10_000_000, ref error) }; break;
                case "--window": options = options with { Window = (int)Number(name, value, 1, 1_000_000, ref error) }; break;
                case "--batch": options = options with { Batch = (int)Number(name, value, 1, 4_096, ref error) }; break;
                case "--mid": mid = value; break;
                case "--tick": tick = value; break;
                case "--levels": options = options with { Levels = (int)Number(name, value, 1, 1_000, ref error) }; break;
                case "--price-decimals": options = options with { PriceDecimals = (int)Number(name, value, 0, 8, ref error) }; break;
                case "--qty": options = options with { Quantity = Number(name, value, 1, 1_000_000_000, ref error) }; break;
                case "--heartbeat": options = options with { HeartBtInt = (int)Number(name, value, 1, 3_600, ref error) }; break;
                case "--timeout": options = options with { TimeoutSeconds = (int)Number(name, value, 1, 3_600, ref error) }; break;
                case "--run-id": options = options with { RunId = RunIdValue(value, ref error) }; break;
                default: return Fail($"unknown option '{name}'");
            }

            if (error is not null)
            {
                return Fail(error);
            }
        }

        if (options.Mode == LoadMode.Rate && options.Rate == 0)
        {
            return Fail("--rate: rate mode needs a rate of at least 1 order per second (0 means pipelined in mixed mode only)");
        }

        string? priceError = null;
        long midUnits = Price("--mid", mid, options.PriceDecimals, ref priceError);
        long tickUnits = Price("--tick", tick, options.PriceDecimals, ref priceError);
        if (priceError is not null)
        {
            return Fail(priceError);
        }

        if (midUnits - (options.Levels * tickUnits) <= 0)
        {
            return Fail($"--mid {mid} is too low for {options.Levels} levels of tick {tick}");
        }

        if (midUnits % tickUnits != 0)
        {
            return Fail($"--mid {mid} is not a multiple of --tick {tick}");
        }

        return new ParseOutcome(options with { MidPrice = midUnits, Tick = tickUnits }, false, null);
    }

    private static ParseOutcome Fail(string error) => new(null, false, error);

    private static long Number(string name, string value, long min, long max, ref string? error)
    {
        if (!long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out long result))
        {
            error = $"{name}: '{value}' is not a whole number";
            return 0;
        }

        if (result < min || result > max)
        {
            error = $"{name}: {result} is outside {min}..{max}";
            return 0;
        }

        return result;
    }

    private static long Price(string name, string value, int decimals, ref string? error)
    {
        FieldStatus status = FixPrice.TryParse(Encoding.ASCII.GetBytes(value), decimals, out long units);
        if (status != FieldStatus.Ok || units <= 0)
        {
            error ??= $"{name}: '{value}' is not a positive price with at most {decimals} decimals";
            return 0;
        }

        return units;
    }

    private static LoadMode Mode(string value, ref string? error)
    {
        switch (value)
        {
            case "sync": return LoadMode.Sync;
            case "rate": return LoadMode.Rate;
            case "pipelined": return LoadMode.Pipelined;
            case "mixed": return LoadMode.Mixed;
            default:
                error = $"--mode: '{value}' is not one of sync, rate, pipelined, mixed";
                return LoadMode.Sync;
        }
    }

    // CompIDs and symbols go into FIX fields as ASCII: printable, no '=' (and never SOH).
    private static string CompId(string name, string value, ref string? error)
    {
        if (value.Length == 0)
        {
            error = $"{name} must not be empty";
        }

        foreach (char c in value)
        {
            if (c <= ' ' || c > '~' || c == '=')
            {
                error = $"{name}: '{value}' must be printable ASCII without spaces or '='";
                break;
            }
        }

        return value;
    }

    private static string RunIdValue(string value, ref string? error)
    {
        if (!Orders.ClOrdIdCodec.IsValidRunId(value))
        {
            error = $"--run-id: '{value}' must be {Orders.ClOrdIdCodec.RunIdLength} characters 0-9 or A-Z";
        }

        return value;
    }
}
