namespace Exchange.Fix.Dictionary;

/// <summary>Value syntax classes the validator checks; FIX types with the same syntax share one.</summary>
internal enum FixFieldType : byte
{
    /// <summary>Any non-empty text (STRING, DATA, CURRENCY, EXCHANGE, MONTHYEAR, ...).</summary>
    Text = 0,

    /// <summary>INT, SEQNUM, LENGTH, NUMINGROUP, DAYOFMONTH.</summary>
    Int = 1,

    /// <summary>PRICE, QTY, AMT, FLOAT, PRICEOFFSET, PERCENTAGE.</summary>
    Decimal = 2,

    Char = 3,
    Boolean = 4,
    UtcTimestamp = 5,

    /// <summary>UTCDATEONLY, LOCALMKTDATE: yyyyMMdd.</summary>
    Date = 6,

    /// <summary>MULTIPLEVALUESTRING: space-separated enum tokens.</summary>
    MultipleValue = 7,
}
