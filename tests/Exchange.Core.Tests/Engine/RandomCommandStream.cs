using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// A seeded stream of plausible and deliberately broken commands for the differential test: new orders of every
/// type and time in force near the mid (so they cross often), cancels and replaces of recent client ids (live or not,
/// sometimes another owner's or the wrong side; a replace sometimes restating or changing the order's type or time in
/// force), duplicate ids, ids reused long after their order is done (by the
/// same owner, for new orders), new orders resent as possible resends (an exact copy of a recent one, its order live
/// or not, and now and then a fresh order flagged as one), invalid fields, order status requests (of recent ids, some
/// on the wrong side or instrument or of another owner), now and then a mass cancel (one owner's orders on one
/// instrument or all, one side or both), now and then a cancel on disconnect, and now and then a new trading day
/// (which expires the Day orders). Each owner's new orders and replaces carry that owner's self-trade prevention, as
/// a session's do: owner 0 none, 1 cancel incoming, 2 cancel resting, 3 cancel both. Same seed, same stream.
/// </summary>
public sealed class RandomCommandStream(int seed, int instrumentCount = 3, int ownerCount = 4)
{
    private readonly Random _random = new(seed);

    /// <summary>Draws a replace's OrdType and TimeInForce apart from <see cref="_random"/>, so adding them left the rest of the stream as it was.</summary>
    private readonly Random _replaceTerms = new(seed + 7919);

    /// <summary>Draws the occasional command whose self-trade prevention is not its owner's usual one (a session reconfigured).</summary>
    private readonly Random _selfTrade = new(seed + 15_485_863);

    /// <summary>Decides and draws status requests apart from <see cref="_random"/>, so they fall between the same other commands.</summary>
    private readonly Random _statusRequests = new(seed + 104_729);
    private readonly List<(int Instrument, int Owner, ClOrdId Id, Side Side, long Price)> _issued = [];
    private readonly List<(int Owner, ClOrdId Id)> _everyId = [];
    private readonly List<Command> _newOrders = [];

    /// <summary>Its own generator, so resending replaces left every other draw as it was.</summary>
    private readonly Random _resends = new(seed + 7_919);
    private Command? _lastReplace;
    private int _nextId;
    private long _sequence;

    public Command Next()
    {
        int extra = _statusRequests.Next(1000);
        if (extra < 25 && _issued.Count > 0)
        {
            Command status = extra < 2 ? MassCancel() : extra < 3 ? CancelOnDisconnect() : extra < 15 ? StatusRequest() : RefusedRequest();
            status.Sequence = ++_sequence;
            status.Timestamp = _sequence * 7;
            return status;
        }

        int roll = _random.Next(100);
        Command command = _random.Next(400) == 0 ? new Command { Type = CommandType.NewTradingDay } : roll switch
        {
            < 50 => NewOrder(),
            < 70 => CancelOrReplace(CommandType.Cancel),
            < 92 => CancelOrReplace(CommandType.Replace),
            _ => Broken(),
        };
        command.Sequence = ++_sequence;
        command.Timestamp = _sequence * 7;
        return command;
    }

    private Command NewOrder()
    {
        if (_random.Next(100) < 5 && _newOrders.Count > 0)
        {
            // A client that got no answer sends the same order again: same owner, id and terms.
            Command resent = _newOrders[Math.Max(0, _newOrders.Count - 1 - _random.Next(Math.Min(_newOrders.Count, 40)))];
            resent.PossibleResend = true;
            return resent;
        }

        int instrument = _random.Next(instrumentCount);
        int owner = _random.Next(ownerCount);
        Side side = _random.Next(2) == 0 ? Side.Buy : Side.Sell;
        long lot = instrument == 0 ? 10 : 1;
        long quantity = lot * _random.Next(1, 12);
        // Buyers lean below the mid and sellers above, with overlap, so books build up and also cross.
        int ticks = _random.Next(-6, 7) + (side == Side.Buy ? -2 : 2);
        if (_random.Next(100) < 10)
        {
            // Some deep orders so sides hold dozens of levels (binary-search paths, ladder ends) and sweeps go far.
            ticks = (side == Side.Buy ? -1 : 1) * _random.Next(10, 80);
        }

        long price = TestInstruments.P(ticks);
        ClOrdId id = FreshId();
        int reuse = _random.Next(100);
        if (reuse < 3 && _issued.Count > 0)
        {
            id = Recent().Id;
        }
        else if (reuse < 7 && _everyId.Count > 0)
        {
            (owner, id) = Old();
        }

        TimeInForce tif = _random.Next(100) switch
        {
            < 45 => TimeInForce.Day,
            < 70 => TimeInForce.GoodTillCancel,
            < 85 => TimeInForce.ImmediateOrCancel,
            _ => TimeInForce.FillOrKill,
        };
        Command command = Commands.Limit(instrument, owner, id, side, price, quantity, tif);
        if (_random.Next(100) < 8)
        {
            command.OrderType = OrderType.Market;
            command.Price = _random.Next(2) == 0 ? 0 : price;
        }

        // An order flagged as a possible resend that never arrived before is entered like any other.
        command.PossibleResend = _random.Next(100) < 2;
        command.SelfTradePrevention = SelfTradePreventionOf(owner);
        _issued.Add((instrument, owner, id, side, price));
        _everyId.Add((owner, id));
        _newOrders.Add(command);
        return command;
    }

    private Command CancelOrReplace(CommandType type)
    {
        if (_issued.Count == 0)
        {
            return NewOrder();
        }

        if (type == CommandType.Replace && _lastReplace is { } last && _resends.Next(100) < 4)
        {
            // A client that got no answer sends the same replace again (carried out already, or refused).
            return last;
        }

        var target = Recent();
        int owner = _random.Next(100) < 5 ? _random.Next(ownerCount) : target.Owner;
        int instrument = _random.Next(100) < 3 ? _random.Next(instrumentCount) : target.Instrument;
        Side side = _random.Next(100) < 3 ? (target.Side == Side.Buy ? Side.Sell : Side.Buy) : target.Side;
        int reuse = _random.Next(100);
        ClOrdId requestId = reuse < 10 ? target.Id : reuse < 14 ? Old().Id : FreshId();
        _everyId.Add((owner, requestId));
        if (type == CommandType.Cancel)
        {
            return Commands.Cancel(instrument, owner, requestId, target.Id, side);
        }

        long lot = instrument == 0 ? 10 : 1;
        long price = _random.Next(100) switch
        {
            < 50 => target.Price,
            _ => TestInstruments.P(_random.Next(-8, 9)),
        };
        long quantity = lot * _random.Next(0, 14);
        _issued.Add((instrument, owner, requestId, side, price));
        Command replace = Commands.Replace(instrument, owner, requestId, target.Id, side, price, quantity);
        replace.SelfTradePrevention = SelfTradePreventionOf(owner);

        // Mostly unsaid (0), as FIX allows for TimeInForce; sometimes said, the order's own or another.
        replace.TimeInForce = _replaceTerms.Next(100) switch
        {
            < 94 => 0,
            < 97 => TimeInForce.Day,
            < 99 => TimeInForce.GoodTillCancel,
            _ => TimeInForce.ImmediateOrCancel,
        };
        replace.OrderType = _replaceTerms.Next(100) switch
        {
            < 50 => 0,
            < 99 => OrderType.Limit,
            _ => OrderType.Market,
        };
        _lastReplace = replace;
        return replace;
    }

    private Command Broken()
    {
        Command command = NewOrder();
        switch (_random.Next(12))
        {
            case 0: command.InstrumentId = instrumentCount + _random.Next(3); break;
            case 1: command.Side = (Side)'5'; break;
            case 2: command.OrderType = (OrderType)'P'; break;
            case 3: command.TimeInForce = (TimeInForce)'2'; break;
            case 4: command.Quantity = -_random.Next(3); break;
            case 5: command.Quantity += 3; break; // off lot on instrument 0, fine elsewhere
            case 6: command.Price = command.OrderType == OrderType.Limit ? -command.Price : command.Price; break;
            case 7: command.Price += 17; break;
            case 8: command.Price = TestInstruments.MaxPrice + (TestInstruments.Tick * _random.Next(1, 4)); break;
            case 9: command.Type = CommandType.None; break;
            case 10: command.Type = CommandType.Replace; command.OrigClOrdId = FreshId(); break;
            default: command.TimeInForce = TimeInForce.FillOrKill; command.Quantity *= 50; break;
        }

        return command;
    }

    /// <summary>
    /// The owner's session setting, but one command in ten another (the setting changed between starts, which the
    /// command, not the owner, must decide), and one in five hundred no setting at all (refused). Drawn apart from
    /// <see cref="_random"/>, so the stream's other commands stay as they were.
    /// </summary>
    private SelfTradePrevention SelfTradePreventionOf(int owner)
    {
        int roll = _selfTrade.Next(500);
        return roll == 0 ? (SelfTradePrevention)(4 + _selfTrade.Next(250)) : roll < 50 ? (SelfTradePrevention)_selfTrade.Next(4) : (SelfTradePrevention)(owner % 4);
    }

    private Command MassCancel() => new()
    {
        Type = CommandType.MassCancel, OwnerId = _statusRequests.Next(ownerCount), ClOrdId = ClOrdId.From($"m{_sequence}"),
        InstrumentId = _statusRequests.Next(2) == 0 ? -1 : _statusRequests.Next(instrumentCount),
        Side = _statusRequests.Next(3) switch { 0 => Side.Buy, 1 => Side.Sell, _ => Side.None },
    };

    private Command CancelOnDisconnect() => new()
    {
        Type = CommandType.CancelOnDisconnect, OwnerId = _statusRequests.Next(ownerCount), InstrumentId = -1, Side = Side.None,
    };

    /// <summary>A cancel or replace of a recent id (or one never used) that the gateway refused, with one of its reasons.</summary>
    private Command RefusedRequest()
    {
        (int instrument, int owner, ClOrdId id, Side side, long price) =
            _issued[Math.Max(0, _issued.Count - 1 - _statusRequests.Next(Math.Min(_issued.Count, 60)))];
        var request = new Command
        {
            Type = _statusRequests.Next(2) == 0 ? CommandType.Cancel : CommandType.Replace, InstrumentId = instrument, OwnerId = owner,
            ClOrdId = ClOrdId.From($"f{_sequence}"), OrigClOrdId = _statusRequests.Next(10) == 0 ? ClOrdId.From($"never{_sequence}") : id,
            Side = side, Price = price, Quantity = 1,
        };
        if (_statusRequests.Next(5) == 0)
        {
            request.InstrumentId = (instrument + 1) % instrumentCount; // the live order is still reported; an ended one is not
        }

        RejectReason reason = _statusRequests.Next(4) switch
        {
            0 => RejectReason.UnknownInstrument,
            1 => RejectReason.UnsupportedOrderInstruction,
            2 => RejectReason.InvalidSide,
            _ => RejectReason.PriceMissing,
        };
        RefusedRequests.Refuse(ref request, reason);
        return request;
    }

    private Command StatusRequest()
    {
        (int instrument, int owner, ClOrdId id, Side side, _) =
            _issued[Math.Max(0, _issued.Count - 1 - _statusRequests.Next(Math.Min(_issued.Count, 60)))];
        switch (_statusRequests.Next(10))
        {
            case 0: side = side == Side.Buy ? Side.Sell : Side.Buy; break;
            case 1: instrument = (instrument + 1) % instrumentCount; break;
            case 2: owner = (owner + 1) % ownerCount; break;
        }

        return new Command
        {
            Type = CommandType.StatusRequest, InstrumentId = instrument, OwnerId = owner, ClOrdId = id, Side = side,
            OrigClOrdId = _statusRequests.Next(2) == 0 ? default : ClOrdId.From($"q{_sequence}"),
        };
    }

    private (int Instrument, int Owner, ClOrdId Id, Side Side, long Price) Recent() =>
        _issued[Math.Max(0, _issued.Count - 1 - _random.Next(Math.Min(_issued.Count, 60)))];

    /// <summary>Any id used so far, with its owner: mostly long done (filled, cancelled, expired, or from an earlier day).</summary>
    private (int Owner, ClOrdId Id) Old() => _everyId[_random.Next(_everyId.Count)];

    private ClOrdId FreshId() => ClOrdId.From($"o{++_nextId}");
}
