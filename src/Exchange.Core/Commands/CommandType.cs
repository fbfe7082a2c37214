namespace Exchange.Core.Commands;

public enum CommandType : byte
{
    None = 0,
    NewOrder = 1,
    Cancel = 2,
    Replace = 3,
}
